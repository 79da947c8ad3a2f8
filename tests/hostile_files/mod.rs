//! Spreadsheets made to hurt a reader: workbooks that declare absurd sizes, cells at the
//! far corner of a sheet, zip bombs, endless CSV rows and columns, unclosed quotes. Each
//! is written by Rust (no fixture files, no Python): a minimal workbook's parts through
//! the zip crate, with the one part that attacks.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// One hostile file: what it is, and where it was written.
pub struct Hostile {
    /// What it does, for messages.
    pub what: &'static str,
    /// The file.
    pub path: PathBuf,
    /// Words the refusal must contain (the limit it passes, or what is wrong).
    pub says: &'static str,
}

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"#;
const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
const WORKBOOK: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
const WORKBOOK_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>"#;

/// A sheet's XML around `rows` (the `<row>` elements).
pub fn sheet_xml(rows: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{rows}</sheetData></worksheet>"#
    )
}

/// Shared texts `sst` with these `<si>` items, declaring `unique` of them.
pub fn shared_xml(unique: &str, items: &[&str]) -> String {
    let mut s = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{unique}" uniqueCount="{unique}">"#
    );
    for i in items {
        s.push_str(&format!("<si><t>{i}</t></si>"));
    }
    s.push_str("</sst>");
    s
}

/// A header and one good row: what every workbook below starts from.
pub fn good_rows() -> String {
    r#"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>1000</v></c></row>"#.into()
}

/// A workbook of these parts (the standard ones, then `sheet` and `shared` as given),
/// compressed.
pub fn workbook(path: &Path, sheet: &str, shared: &str) {
    workbook_with(
        path,
        &[("xl/worksheets/sheet1.xml", sheet.as_bytes())],
        shared,
    );
}

/// A workbook whose parts include `extra` (name, content), its shared texts `shared`.
pub fn workbook_with(path: &Path, extra: &[(&str, &[u8])], shared: &str) {
    let f = std::fs::File::create(path).unwrap();
    let mut z = zip::ZipWriter::new(f);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, body) in [
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("xl/workbook.xml", WORKBOOK.as_bytes()),
        ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS.as_bytes()),
        ("xl/sharedStrings.xml", shared.as_bytes()),
    ]
    .into_iter()
    .chain(extra.iter().copied())
    {
        z.start_file(name, opts).unwrap();
        z.write_all(body).unwrap();
    }
    z.finish().unwrap();
}

/// A workbook whose sheet is `size` bytes of blanks inside one cell's text (compressed to
/// a few hundred KB: a zip bomb).
pub fn zip_bomb(path: &Path, size: usize) {
    let f = std::fs::File::create(path).unwrap();
    let mut z = zip::ZipWriter::new(f);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for (name, body) in [
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", RELS),
        ("xl/workbook.xml", WORKBOOK),
        ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
        ("xl/sharedStrings.xml", &shared_xml("1", &["cliente"])),
    ] {
        z.start_file(name, opts).unwrap();
        z.write_all(body.as_bytes()).unwrap();
    }
    z.start_file("xl/worksheets/sheet1.xml", opts).unwrap();
    z.write_all(
        br#"<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>"#,
    )
    .unwrap();
    let chunk = vec![b' '; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        z.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    z.write_all(b"</t></is></c></row></sheetData></worksheet>")
        .unwrap();
    z.finish().unwrap();
}

/// Every hostile file, written into `dir`.
pub fn all(dir: &Path) -> Vec<Hostile> {
    let mut out = Vec::new();
    let mut add = |what, name: &str, says, write: &dyn Fn(&Path)| {
        let path = dir.join(name);
        write(&path);
        out.push(Hostile { what, path, says });
    };
    let shared_ok = shared_xml("3", &["cliente", "monto", "cus_a"]);
    add("uniqueCount of 4e18", "sst-4e18.xlsx", "cells", &|p| {
        workbook(
            p,
            &sheet_xml(&good_rows()),
            &shared_xml("4000000000000000000", &["cliente", "monto", "cus_a"]),
        )
    });
    add("uniqueCount of 1e11", "sst-1e11.xlsx", "cells", &|p| {
        workbook(
            p,
            &sheet_xml(&good_rows()),
            &shared_xml("100000000000", &["cliente", "monto", "cus_a"]),
        )
    });
    add("cells at A1 and XFD1048576", "corners.xlsx", "rows", &|p| {
        workbook(
            p,
            &sheet_xml(
                r#"<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="1048576"><c r="XFD1048576"><v>1</v></c></row>"#,
            ),
            &shared_ok,
        )
    });
    add("a cell at ZZ200000", "zz.xlsx", "columns", &|p| {
        workbook(
            p,
            &sheet_xml(&format!(
                r#"{}<row r="200000"><c r="ZZ200000"><v>1</v></c></row>"#,
                good_rows()
            )),
            &shared_ok,
        )
    });
    add("a cell in row 900,000", "deep.xlsx", "rows", &|p| {
        workbook(
            p,
            &sheet_xml(&format!(
                r#"{}<row r="900000"><c r="A900000"><v>1</v></c></row>"#,
                good_rows()
            )),
            &shared_ok,
        )
    });
    add(
        "a zip bomb (300 MB of blanks)",
        "bomb.xlsx",
        "zip bomb",
        &|p| zip_bomb(p, 300 << 20),
    );
    add(
        "a 50 MB cell in a workbook",
        "big-cell.xlsx",
        "characters",
        &|p| zip_bomb(p, 50 << 20),
    );
    add("20,000 parts", "parts.xlsx", "parts", &|p| {
        let names: Vec<String> = (0..20_000).map(|i| format!("xl/media/x{i}.xml")).collect();
        let extra: Vec<(&str, &[u8])> = std::iter::once((
            "xl/worksheets/sheet1.xml",
            Box::leak(sheet_xml(&good_rows()).into_boxed_str()).as_bytes(),
        ))
        .chain(names.iter().map(|n| (n.as_str(), &b"<x/>"[..])))
        .collect();
        workbook_with(p, &extra, &shared_ok);
    });
    add("a tag of 100 KB", "tag.xlsx", "damaged", &|p| {
        workbook(
            p,
            &sheet_xml(&format!(
                r#"<row r="1"><c r="A1" t="s" x="{}"><v>0</v></c></row>"#,
                "y".repeat(100_000)
            )),
            &shared_ok,
        )
    });
    add("not a zip", "random.xlsx", "not an Excel", &|p| {
        std::fs::write(
            p,
            (0..4096u32)
                .map(|i| (i * 7919 % 251) as u8)
                .collect::<Vec<_>>(),
        )
        .unwrap()
    });
    add("an OLE file (old .xls)", "old.xlsx", "not an Excel", &|p| {
        let mut b = vec![0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
        b.resize(4096, 0xff);
        std::fs::write(p, b).unwrap()
    });
    add("1,000,000 CSV rows", "million.csv", "rows", &|p| {
        let mut f = std::io::BufWriter::new(std::fs::File::create(p).unwrap());
        writeln!(f, "cliente,monto").unwrap();
        for i in 0..1_000_000 {
            writeln!(f, "cus_{},{}", i % 7, 1000 + i).unwrap();
        }
    });
    add("10,000 columns x 2,000 rows", "wide.csv", "columns", &|p| {
        let mut f = std::io::BufWriter::new(std::fs::File::create(p).unwrap());
        let line = vec!["x"; 10_000].join(",");
        for _ in 0..2_000 {
            writeln!(f, "{line}").unwrap();
        }
    });
    add(
        "a 50 MB reference cell",
        "long-cell.csv",
        "characters",
        &|p| {
            let mut f = std::io::BufWriter::new(std::fs::File::create(p).unwrap());
            write!(f, "cliente,monto,referencia\ncus_a,1000,").unwrap();
            let chunk = vec![b'r'; 1 << 20];
            for _ in 0..50 {
                f.write_all(&chunk).unwrap();
            }
            writeln!(f).unwrap();
        },
    );
    add("an unclosed quote", "quote.csv", "never closed", &|p| {
        let mut f = std::io::BufWriter::new(std::fs::File::create(p).unwrap());
        write!(f, "cliente,monto,referencia\ncus_a,1000,\"R-1\n").unwrap();
        for i in 0..2_000_000 {
            writeln!(f, "cus_b,{i},R-{i}").unwrap();
        }
    });
    add("a file of 120 MB", "huge.csv", "MB", &|p| {
        let f = std::fs::File::create(p).unwrap();
        f.set_len(120 << 20).unwrap();
    });
    #[cfg(unix)]
    add("a FIFO", "pipe.csv", "not a file", &|p| {
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    });
    #[cfg(unix)]
    for dev in ["/dev/zero", "/dev/urandom"] {
        out.push(Hostile {
            what: "a device",
            path: PathBuf::from(dev),
            says: "not a file",
        });
    }
    out
}
