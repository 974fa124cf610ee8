"""Ask-first actions in the tests (league.asking)."""


def ask(client, url, data=None):
    """The first tap of an ask-first action: a POST, sent on (303) to its question, which
    a GET then draws. Returns the question."""
    response = client.post(url, data or {})
    assert response.status_code == 303, response
    assert response["Location"].split("?")[0] == url
    return client.get(response["Location"])
