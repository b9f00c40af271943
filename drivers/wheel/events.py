"""What the wheel driver tells the table: facts (states, results, rotor) and the driver's verdicts
under the vendor's exception rules (void, fault, recovered). Online/offline come from
``drivers.events``; every wheel event also names its ``device`` so one table queue can hold all."""

from __future__ import annotations

from typing import Literal

from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline


class WheelEvent(DeviceEvent):
    device: str = "wheel"


class BeforeGame(WheelEvent):
    """State 1: powered up, before the next game (games-per-hour delay)."""

    type: Literal["before_game"] = "before_game"
    spin: int


class PlaceBets(WheelEvent):
    """State 2: a new game, rotor turning, bets open."""

    type: Literal["place_bets"] = "place_bets"
    spin: int


class BallInRim(WheelEvent):
    """State 3: the ball was launched (bets may still be open)."""

    type: Literal["ball_in_rim"] = "ball_in_rim"
    spin: int


class NoMoreBets(WheelEvent):
    """State 4: lock all bets."""

    type: Literal["no_more_bets"] = "no_more_bets"
    spin: int


class WinningNumberEvent(WheelEvent):
    """The result of game ``spin``; "00" only on 38-pocket wheels."""

    type: Literal["winning_number"] = "winning_number"
    number: str
    spin: int


class TableClosed(WheelEvent):
    """State 6: table closed, powered down or idle."""

    type: Literal["table_closed"] = "table_closed"
    spin: int


class Rotor(WheelEvent):
    """Rotor speed or direction changed noticeably (not every status: the journal stays small)."""

    type: Literal["rotor"] = "rotor"
    rpm: float
    direction: Literal["clockwise", "anticlockwise"]


WarningCode = Literal[
    "launch_retry", "ball_not_sensed", "wrong_way", "result_of_void_game", "result_out_of_turn",
    "not_repowered", "command_timeout",
]


class WheelWarning(WheelEvent):
    """Something worth showing the dealer that does not (yet) change the round."""

    type: Literal["warning"] = "warning"
    code: WarningCode
    state: int | None = None
    spin: int | None = None
    detail: str = ""


VoidReason = Literal["miss_spin", "launch_failed", "ball_not_sensed"]


class Void(WheelEvent):
    """The vendor's rules void game ``spin``: lock bets, refund; on miss-spin the driver sent ``*R``."""

    type: Literal["void"] = "void"
    reason: VoidReason
    spin: int
    state: int


FaultReason = Literal["sensor_fault", "state_6", "reported", "result_mismatch", "identity_mismatch",
                      "identity_unproven"]


class Fault(WheelEvent):
    """The wheel cannot be trusted until re-powered with ``*P 1``: hold or void the round, alert.

    ``sensor_fault`` = status flag 4; ``state_6`` = state 6 mid-game, not commanded; ``reported`` =
    a ``*F <code>`` during play; ``result_mismatch`` = the state-5 status contradicts the number line;
    ``identity_mismatch`` = after a (re)connect the ``*V`` banner is not this table's wheel;
    ``identity_unproven`` = after a (re)connect the wheel does not answer ``*V`` at all.
    """

    type: Literal["fault"] = "fault"
    reason: FaultReason
    spin: int | None = None
    state: int | None = None
    code: int | None = None
    detail: str = ""


class Recovered(WheelEvent):
    """After a fault: ``*P OK`` then a healthy state 1 or 2 — the next game may run."""

    type: Literal["recovered"] = "recovered"
    spin: int


class SelfTestResult(WheelEvent):
    """``*F`` outcome: passed, or the vendor fault codes (1 hardware ... 100 timed out)."""

    type: Literal["self_test"] = "self_test"
    passed: bool
    codes: tuple[int, ...] = ()
    busy: bool = False


AnyWheelEvent = (
    BeforeGame | PlaceBets | BallInRim | NoMoreBets | WinningNumberEvent | TableClosed | Rotor | WheelWarning
    | Void | Fault | Recovered | SelfTestResult | DeviceOnline | DeviceOffline
)
