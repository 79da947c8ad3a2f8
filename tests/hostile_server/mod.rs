//! A deliberately broken invoicing service on loopback, written on raw TCP so that it
//! can send what no well-behaved server library would: truncated and oversized bodies,
//! stalls, resets, absurd token lifetimes, endless or cycling listings, escape sequences.
//! One `Mode` at a time; every request is counted by path.

#![allow(dead_code)]

use base64::Engine;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the token endpoint answers.
#[derive(Clone, Debug)]
pub enum Token {
    /// A normal token for an hour.
    Normal,
    /// `expires_in` with this raw JSON text (`1e300`, `"3600"`, `null`, …).
    ExpiresIn(String),
    /// No `expires_in`; a JWT whose `exp` is this raw JSON text.
    JwtExp(String),
    /// Reads the request and never answers.
    Stall,
    /// Status 429 with this `Retry-After` header.
    RateLimited(String),
}

/// What the API answers (every route but the token endpoint).
#[derive(Clone, Debug)]
pub enum Api {
    /// A good invoice for every read and write; listings end after one page.
    Normal,
    /// Exactly these bytes after the status line: headers and body as given, with a
    /// correct content-length.
    Raw {
        /// Status.
        status: u16,
        /// Extra headers.
        headers: Vec<(String, String)>,
        /// Body bytes.
        body: Vec<u8>,
    },
    /// A content-length of `declared`, then `body` (shorter), then the connection closes.
    Truncated {
        /// Status.
        status: u16,
        /// Declared length.
        declared: usize,
        /// What is really sent.
        body: Vec<u8>,
    },
    /// Reads the request and never answers.
    StallHead,
    /// Sends the head and part of the body, then nothing.
    StallBody {
        /// Status.
        status: u16,
    },
    /// A chunked body, one byte per chunk, `delay_ms` between chunks.
    Drip {
        /// Status.
        status: u16,
        /// Body.
        body: Vec<u8>,
        /// Delay between chunks.
        delay_ms: u64,
    },
    /// Closes the connection right after reading the request.
    Reset,
    /// A success status with a header of this many bytes.
    HugeHeaders {
        /// Header size.
        bytes: usize,
    },
    /// Listings: full pages of `per_page` invoices with a new cursor every time.
    Endless {
        /// Invoices per page.
        per_page: usize,
    },
    /// Listings: empty pages with new cursors forever.
    EndlessEmpty,
    /// Listings: a page, then `empties` empty pages with a cursor, then a last page.
    EmptyPagesBetween {
        /// How many empty pages.
        empties: u64,
    },
    /// Listings: cursors 1, 2, 3, 1, 2, 3, …
    Cycle,
    /// A redirect to another host.
    Redirect,
    /// An invoice whose string fields carry terminal escape sequences and bidi overrides;
    /// errors whose messages do too.
    Escapes,
}

/// The server's state: its modes and what it has seen.
#[derive(Default)]
pub struct State {
    /// Token endpoint behaviour.
    pub token: Option<Token>,
    /// API behaviour.
    pub api: Option<Api>,
    /// Requests per path.
    pub hits: HashMap<String, u64>,
}

/// A running hostile server.
pub struct Hostile {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Shared state.
    pub state: Arc<Mutex<State>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The escape payload used in every string field of [`Api::Escapes`].
pub const PAYLOAD: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2J\r\nFAKE LINE\u{9b}1m\u{202e}";

impl Hostile {
    /// Starts on a free loopback port, in the current runtime.
    pub async fn start(token: Token, api: Api) -> Hostile {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State {
            token: Some(token),
            api: Some(api),
            hits: HashMap::new(),
        }));
        let shared = state.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((sock, _)) = listener.accept().await else {
                    return;
                };
                let state = shared.clone();
                tokio::spawn(async move {
                    let _ = serve(sock, state).await;
                });
            }
        });
        Hostile { url, state, task }
    }

    /// Requests seen on this path.
    pub fn hits(&self, path: &str) -> u64 {
        self.state
            .lock()
            .unwrap()
            .hits
            .get(path)
            .copied()
            .unwrap_or(0)
    }

    /// Requests seen on paths starting with this.
    pub fn hits_under(&self, prefix: &str) -> u64 {
        self.state
            .lock()
            .unwrap()
            .hits
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(_, v)| v)
            .sum()
    }
}

/// A plain invoice.
pub fn invoice(id: &str) -> Value {
    json!({
        "id": id, "customer": "cus_1", "amount": 1000, "currency_code": "CLP",
        "due_date": "2026-12-31", "is_paid": false, "is_void": false,
        "invoice_external_id": format!("ref-{id}")
    })
}

fn jwt(exp: &str) -> String {
    let b = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
    format!(
        "{}.{}.sig",
        b(r#"{"alg":"HS256","typ":"JWT"}"#),
        b(&format!(r#"{{"sub":"x","exp":{exp}}}"#))
    )
}

async fn read_request(sock: &mut TcpStream) -> Option<(String, String)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
        if buf.len() > 1 << 20 {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let len: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .unwrap_or(0);
    while buf.len() < head_end + len {
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let mut first = head.lines().next()?.split(' ');
    let method = first.next()?.to_string();
    let target = first.next()?.to_string();
    Some((method, target))
}

fn query(target: &str, key: &str) -> Option<String> {
    let q = target.split_once('?')?.1;
    q.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == key).then(|| v.to_string())
    })
}

async fn respond(
    sock: &mut TcpStream,
    status: u16,
    headers: &[(String, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k == "content-type") {
        head.push_str("content-type: application/json\r\n");
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    sock.write_all(head.as_bytes()).await?;
    sock.write_all(body).await?;
    sock.flush().await
}

async fn json_answer(sock: &mut TcpStream, status: u16, v: &Value) -> std::io::Result<()> {
    respond(sock, status, &[], v.to_string().as_bytes()).await
}

async fn stall() {
    tokio::time::sleep(Duration::from_secs(3600)).await;
}

async fn serve(mut sock: TcpStream, state: Arc<Mutex<State>>) -> std::io::Result<()> {
    let Some((method, target)) = read_request(&mut sock).await else {
        return Ok(());
    };
    let path = target.split('?').next().unwrap_or("").to_string();
    let (token, api) = {
        let mut s = state.lock().unwrap();
        *s.hits.entry(path.clone()).or_default() += 1;
        (s.token.clone().unwrap(), s.api.clone().unwrap())
    };
    if path == "/oauth/token" {
        return match token {
            Token::Normal => {
                json_answer(
                    &mut sock,
                    200,
                    &json!({"access_token": "tok", "token_type": "Bearer", "expires_in": 3600}),
                )
                .await
            }
            Token::ExpiresIn(raw) => {
                let body =
                    format!(r#"{{"access_token":"tok","token_type":"Bearer","expires_in":{raw}}}"#);
                respond(&mut sock, 200, &[], body.as_bytes()).await
            }
            Token::JwtExp(raw) => {
                let body = format!(
                    r#"{{"access_token":"{}","token_type":"Bearer"}}"#,
                    jwt(&raw)
                );
                respond(&mut sock, 200, &[], body.as_bytes()).await
            }
            Token::Stall => {
                stall().await;
                Ok(())
            }
            Token::RateLimited(after) => {
                respond(
                    &mut sock,
                    429,
                    &[("retry-after".into(), after)],
                    br#"{"error":"rate_limited"}"#,
                )
                .await
            }
        };
    }
    let listing = path.starts_with("/invoices/customer/");
    let cursor: u64 = query(&target, "cursor")
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    match api {
        Api::Normal => {
            if listing {
                json_answer(
                    &mut sock,
                    200,
                    &json!({"items": [invoice("in_1"), invoice("in_2")], "next_cursor": null}),
                )
                .await
            } else {
                json_answer(&mut sock, 200, &invoice("in_1")).await
            }
        }
        Api::Raw {
            status,
            headers,
            body,
        } => respond(&mut sock, status, &headers, &body).await,
        Api::Truncated {
            status,
            declared,
            body,
        } => {
            let head = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {declared}\r\n\r\n"
            );
            sock.write_all(head.as_bytes()).await?;
            sock.write_all(&body).await?;
            sock.flush().await?;
            // Closing mid-body: the client sees the answer cut off.
            drop(sock);
            Ok(())
        }
        Api::StallHead => {
            stall().await;
            Ok(())
        }
        Api::StallBody { status } => {
            let head = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{{\"id\":"
            );
            sock.write_all(head.as_bytes()).await?;
            sock.flush().await?;
            stall().await;
            Ok(())
        }
        Api::Drip {
            status,
            body,
            delay_ms,
        } => {
            let head = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            );
            sock.write_all(head.as_bytes()).await?;
            for b in body {
                sock.write_all(format!("1\r\n{}\r\n", b as char).as_bytes())
                    .await?;
                sock.flush().await?;
                tokio::time::sleep(Duration::from_millis(delay_ms)).await;
            }
            sock.write_all(b"0\r\n\r\n").await?;
            sock.flush().await
        }
        Api::Reset => {
            // SO_LINGER 0 would send RST; a plain close after reading is enough for the
            // client to see the connection end without an answer.
            drop(sock);
            Ok(())
        }
        Api::HugeHeaders { bytes } => {
            let big = "a".repeat(bytes);
            respond(
                &mut sock,
                if method == "POST" { 201 } else { 200 },
                &[("x-big".into(), big)],
                invoice("in_1").to_string().as_bytes(),
            )
            .await
        }
        Api::Endless { per_page } => {
            let items: Vec<Value> = (0..per_page)
                .map(|i| invoice(&format!("in_{cursor}_{i}")))
                .collect();
            json_answer(
                &mut sock,
                200,
                &json!({"items": items, "next_cursor": (cursor + 1).to_string()}),
            )
            .await
        }
        Api::EndlessEmpty => {
            json_answer(
                &mut sock,
                200,
                &json!({"items": [], "next_cursor": (cursor + 1).to_string()}),
            )
            .await
        }
        Api::EmptyPagesBetween { empties } => {
            let v = if cursor == 0 {
                json!({"items": [invoice("in_first")], "next_cursor": "1"})
            } else if cursor <= empties {
                json!({"items": [], "next_cursor": (cursor + 1).to_string()})
            } else {
                json!({"items": [invoice("in_last")], "next_cursor": null})
            };
            json_answer(&mut sock, 200, &v).await
        }
        Api::Cycle => {
            let next = cursor % 3 + 1;
            json_answer(
                &mut sock,
                200,
                &json!({"items": [invoice(&format!("in_{cursor}"))], "next_cursor": next.to_string()}),
            )
            .await
        }
        Api::Redirect => {
            respond(
                &mut sock,
                302,
                &[("location".into(), "http://example.invalid/steal".into())],
                b"",
            )
            .await
        }
        Api::Escapes => {
            if path.contains("missing") {
                return json_answer(
                    &mut sock,
                    404,
                    &json!({"error": {"message": format!("no such thing{PAYLOAD}"), "code": format!("TK{PAYLOAD}")}}),
                )
                .await;
            }
            let mut inv = invoice(&format!("in_{PAYLOAD}"));
            for k in ["customer", "due_date", "invoice_external_id", "product_id"] {
                inv[k] = json!(format!("{k}{PAYLOAD}"));
            }
            inv["currency_code"] = json!(format!("CLP{PAYLOAD}"));
            inv[format!("extra{PAYLOAD}")] = json!(PAYLOAD);
            if listing {
                json_answer(
                    &mut sock,
                    200,
                    &json!({"items": [inv], "next_cursor": null}),
                )
                .await
            } else {
                json_answer(&mut sock, 200, &inv).await
            }
        }
    }
}
