# the live-table fixtures: players, rooms, no scheduler threads
from tests.games.conftest import _no_scheduler, alice, bob, room  # noqa: F401
