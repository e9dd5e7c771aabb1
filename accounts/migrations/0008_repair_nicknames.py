"""Repair nicknames stored before the nickname rules (accounts.nicknames).

Zero-width and bidirectional control characters, control characters,
``/ \\ ? # %``, spaces at either end and compatibility forms (full-width
letters…) are removed or folded; a nickname left empty becomes the
username's repair, then ``player``; a clash (ignoring case) gets the lowest
free number, as at sign-up.  Look-alikes of other players' nicknames are not
renamed here (which of two players is the impostor is a moderator's call).
"""

from django.db import migrations

from accounts.nicknames import MAX_LENGTH, nickname_problem, nickname_repair


def repair(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    taken = {
        n.casefold() for n in Profile.objects.values_list("nickname", flat=True)
    }
    for profile in Profile.objects.select_related("user").order_by("pk"):
        if nickname_problem(profile.nickname) is None:
            continue
        base = (
            nickname_repair(profile.nickname)
            or nickname_repair(profile.user.username)
            or "player"
        )
        candidate, n = base, 1
        while candidate.casefold() in taken:
            n += 1
            candidate = f"{base[: MAX_LENGTH - len(str(n))]}{n}"
        taken.discard(profile.nickname.casefold())
        taken.add(candidate.casefold())
        profile.nickname = candidate
        profile.save(update_fields=["nickname"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0007_message_i18n")]

    operations = [migrations.RunPython(repair, migrations.RunPython.noop)]
