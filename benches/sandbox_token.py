"""The token the bench scripts' Python clients get, as a program written the natural way
does: POST {base}/oauth/token with the client's credentials (OAuth client credentials)."""
import requests


def token(base, client_id, secret, audience, session=requests):
    return session.post(
        f"{base}/oauth/token",
        json={
            "client_id": client_id,
            "client_secret": secret,
            "audience": audience,
            "grant_type": "client_credentials",
        },
    ).json()["access_token"]
