"""A billing file sent the natural way with requests and a thread pool: a token, then one
POST /invoices per row from 8 threads (each with its own session), no journal.
   python3 benches/bulk_pool.py BASE_URL CLIENT_ID CLIENT_SECRET AUDIENCE FILE.csv [THREADS]
FILE.csv: cliente;monto;moneda;vencimiento;referencia, the date as DD-MM-YYYY.
Prints how many were created; exits 1 if any was not.
"""
import csv
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import requests
from sandbox_token import token

base, client_id, secret, audience, path = sys.argv[1:6]
threads = int(sys.argv[6]) if len(sys.argv) > 6 else 8
bearer = token(base, client_id, secret, audience)
local = threading.local()


def session():
    s = getattr(local, "s", None)
    if s is None:
        s = local.s = requests.Session()
        s.headers["authorization"] = f"Bearer {bearer}"
        s.headers["x-account-key"] = "acc_oauth_clp"
    return s


def send(row):
    d, m, y = row["vencimiento"].split("-")
    r = session().post(
        f"{base}/invoices",
        json={
            "customer": row["cliente"],
            "amount": int(row["monto"]),
            "currency_code": row["moneda"],
            "due_date": f"{y}-{m}-{d}",
            "invoice_external_id": row["referencia"],
        },
    )
    return r.status_code in (200, 201)


with open(path, newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f, delimiter=";"))
with ThreadPoolExecutor(threads) as pool:
    created = sum(pool.map(send, rows))
print(created)
sys.exit(0 if created == len(rows) else 1)
