"""Invitations: a secretary makes a link for an organiser of some pubs or a
co-secretary; it works once, for 7 days, until withdrawn, and only for the league it
names (and only for its emailed address). Every refusal says why and changes nothing."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from league import services
from league.models import Invite
from tests.factories import UserFactory
from tests.league.conftest import snapshot
from tests.questions import ask

pytestmark = pytest.mark.django_db


@pytest.fixture
def invite(world):
    return services.invite_create(
        league=world.league, created_by=world.secretary, role="organiser", pubs=[world.pub]
    )


def _accept(client, user, invite, league="clare"):
    if user:
        client.force_login(user)
    return client.post(reverse("league:invite-accept", args=[league, invite.token]))


def test_a_secretary_invites_an_organiser_and_sees_the_link_and_qr_code(client, world):
    client.force_login(world.secretary)
    response = client.post(
        reverse("league:manage-invites", args=["clare"]),
        {"role": "organiser", "pubs": [world.pub.pk, world.other_pub.pk]},
    )
    invite = Invite.objects.get()
    assert response["Location"] == reverse("league:manage-invite", args=["clare", invite.pk])
    assert sorted(p.slug for p in invite.pubs.all()) == ["cronins", "harbour"]
    assert invite.expires_at - invite.created_at == datetime.timedelta(days=7)
    page = client.get(response["Location"]).content.decode()
    assert f"/clare/join/{invite.token}/" in page
    assert "<svg" in page and "QR code of the invitation link" in page
    assert mail.outbox == []


def test_an_invite_by_email_sends_the_link(client, world):
    client.force_login(world.secretary)
    client.post(
        reverse("league:manage-invites", args=["clare"]),
        {"role": "secretary", "email": "Co@Example.ie"},
    )
    invite = Invite.objects.get()
    assert invite.email == "co@example.ie"
    assert mail.outbox[0].to == ["co@example.ie"]
    assert f"/clare/join/{invite.token}/" in mail.outbox[0].body


def test_an_organiser_invite_needs_a_pub_and_saves_nothing_without(client, world):
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(reverse("league:manage-invites", args=["clare"]), {"role": "organiser"})
    assert response.status_code == 200
    assert "Tick at least one pub" in response.content.decode()
    assert snapshot() == before


def test_a_pub_of_another_league_cannot_be_offered(client, world):
    from tests.factories import PubFactory

    kerry_pub = PubFactory(league=world.other_league)
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-invites", args=["clare"]),
        {"role": "organiser", "pubs": [kerry_pub.pk]},
    )
    assert response.status_code == 200
    assert snapshot() == before


def test_a_logged_in_person_accepts_and_organises_the_pubs(client, world, invite):
    newcomer = UserFactory(username="newcomer")
    response = _accept(client, newcomer, invite)
    assert response["Location"] == reverse("league:tonight", args=["clare"])
    assert list(world.pub.organisers.filter(pk=newcomer.pk)) == [newcomer]
    invite.refresh_from_db()
    assert invite.used_by == newcomer and invite.used_at is not None


def test_a_co_secretary_invite_makes_a_secretary(client, world):
    invite = services.invite_create(
        league=world.league, created_by=world.secretary, role="secretary"
    )
    newcomer = UserFactory(username="newcomer")
    response = _accept(client, newcomer, invite)
    assert response["Location"] == reverse("league:manage", args=["clare"])
    assert world.league.secretaries.filter(pk=newcomer.pk).exists()


def test_a_stranger_signs_up_from_the_link_then_joins(client, world, invite):
    url = reverse("league:invite-accept", args=["clare", invite.token])
    page = client.get(url).content.decode()
    assert "Sign up" in page and "organise The Harbour Bar" in page
    assert client.post(url)["Location"].startswith("/login/?next=")
    response = client.post(
        reverse("league:signup"),
        {
            "email": "new@example.ie",
            "password1": "pint-of-plain-25",
            "password2": "pint-of-plain-25",
            "next": url,
        },
    )
    assert response["Location"] == url
    client.post(url)
    assert world.pub.organisers.filter(username="new@example.ie").exists()


def _expire(invite):
    Invite.objects.filter(pk=invite.pk).update(
        created_at=timezone.now() - datetime.timedelta(days=8),
        expires_at=timezone.now() - datetime.timedelta(days=1),
    )


def _use(invite):
    services.invite_accept(token=invite.token, league_slug="clare", user=UserFactory())


def _revoke(invite):
    services.invite_revoke(invite=invite)


@pytest.mark.parametrize(
    ("spoil", "league", "message"),
    [
        (_expire, "clare", "more than 7 days old"),
        (_use, "clare", "has been used already"),
        (_revoke, "clare", "has withdrawn this invitation"),
        (lambda i: None, "kerry", "is for another league"),
    ],
    ids=["expired", "used", "revoked", "another-league"],
)
def test_a_spoilt_invite_is_refused_with_a_plain_message_and_changes_nothing(
    client, world, invite, spoil, league, message
):
    spoil(invite)
    someone = UserFactory(username="someone")
    before = snapshot()
    url = reverse("league:invite-accept", args=[league, invite.token])
    client.force_login(someone)
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 410
        assert message in response.content.decode()
    assert snapshot() == before
    assert not world.pub.organisers.filter(pk=someone.pk).exists()


def test_an_unknown_token_is_refused(client, world):
    client.force_login(world.organiser)
    before = snapshot()
    response = client.post(reverse("league:invite-accept", args=["clare", "made-up"]))
    assert response.status_code == 410
    assert "not valid" in response.content.decode()
    assert snapshot() == before


def test_an_emailed_invite_accepted_by_someone_else_is_refused(client, world):
    invite = services.invite_create(
        league=world.league,
        created_by=world.secretary,
        role="organiser",
        pubs=[world.pub],
        email="meant@example.ie",
    )
    someone = UserFactory(username="someone", email="other@example.ie")
    before = snapshot()
    response = _accept(client, someone, invite)
    assert response.status_code == 410
    assert "was sent to meant@example.ie" in response.content.decode()
    assert snapshot() == before
    meant = UserFactory(username="meant", email="Meant@example.ie")
    assert _accept(client, meant, invite).status_code == 302
    assert world.pub.organisers.filter(pk=meant.pk).exists()


def test_an_invite_works_only_once(client, world, invite):
    first, second = UserFactory(), UserFactory()
    assert _accept(client, first, invite).status_code == 302
    assert _accept(client, second, invite).status_code == 410
    assert not world.pub.organisers.filter(pk=second.pk).exists()


def test_a_withdrawn_invite_leaves_the_open_list(client, world, invite):
    client.force_login(world.secretary)
    client.post(reverse("league:manage-invite-revoke", args=["clare", invite.pk]))
    page = client.get(reverse("league:manage-invites", args=["clare"])).content.decode()
    assert invite.token not in page
    assert "None." in page


def test_an_accepted_invite_cannot_be_withdrawn(client, world, invite):
    _use(invite)
    client.force_login(world.secretary)
    before = snapshot()
    response = client.post(
        reverse("league:manage-invite-revoke", args=["clare", invite.pk]), follow=True
    )
    assert "accepted already" in response.content.decode()
    assert snapshot() == before


def test_the_roles_page_lists_secretaries_and_removes_one_but_never_the_last(client, world):
    co = UserFactory(username="co-secretary")
    world.league.secretaries.add(co)
    client.force_login(world.secretary)
    page = client.get(reverse("league:manage-organisers", args=["clare"])).content.decode()
    assert "co-secretary" in page and "harbour" in page
    url = reverse("league:manage-secretary-remove", args=["clare", co.pk])
    assert "Remove co-secretary as a secretary of" in ask(client, url).content.decode()
    assert co in world.league.secretaries.all()  # asked first: nothing changed yet
    client.post(url, {"confirm": "yes"})
    assert list(world.league.secretaries.all()) == [world.secretary]
    before = snapshot()
    response = client.post(
        reverse("league:manage-secretary-remove", args=["clare", world.secretary.pk]),
        {"confirm": "yes"},
        follow=True,
    )
    assert "A league needs a secretary" in response.content.decode()
    assert snapshot() == before


def test_users_are_unchanged_by_invites_not_accepted(world, invite):
    assert get_user_model().objects.count() == 4
    assert re.fullmatch(r"[\w-]{32}", invite.token)


def test_a_secretary_of_another_league_cannot_see_or_withdraw_the_invite(client, world, invite):
    client.force_login(world.other_secretary)
    before = snapshot()
    assert client.get(reverse("league:manage-invite", args=["kerry", invite.pk])).status_code == 404
    url = reverse("league:manage-invite-revoke", args=["kerry", invite.pk])
    assert client.post(url).status_code == 404
    assert snapshot() == before
