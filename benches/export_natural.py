"""A customer's invoices to CSV, written the natural way with requests + csv: a token,
then every page of 1000 following next_cursor, each row written as it arrives.
   python3 benches/export_natural.py BASE_URL CLIENT_ID CLIENT_SECRET AUDIENCE CUSTOMER OUT.csv
"""
import csv
import json
import sys

import requests
from sandbox_token import token

base, client_id, secret, audience, customer, out = sys.argv[1:7]
s = requests.Session()
s.headers["authorization"] = f"Bearer {token(base, client_id, secret, audience, s)}"
s.headers["x-account-key"] = "acc_oauth_clp"
with open(out, "w", newline="", encoding="utf-8") as f:
    w = None
    cursor = None
    while True:
        params = {"page_size": 1000}
        if cursor:
            params["cursor"] = cursor
        r = s.get(f"{base}/invoices/customer/{customer}", params=params)
        r.raise_for_status()
        page = r.json()
        for inv in page["items"]:
            if w is None:
                w = csv.DictWriter(f, fieldnames=list(inv.keys()), extrasaction="ignore")
                w.writeheader()
            inv["metadata"] = json.dumps(inv.get("metadata") or {}, ensure_ascii=False)
            w.writerow(inv)
        cursor = page.get("next_cursor")
        if not cursor:
            break
