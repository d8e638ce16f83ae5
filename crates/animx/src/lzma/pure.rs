//! The pure-Rust LZMA1 codec: lzma-rust2 (a port of XZ for Java), for targets where
//! liblzma's C does not build (`wasm32-unknown-unknown`).

use std::io::{self, Read, Write};

use lzma_rust2::{LzmaOptions, LzmaReader, LzmaWriter};

use super::{Codec, Failure};

/// lzma-rust2.
pub(super) struct LzmaRust2;

/// A slice reader that counts the bytes it hands out, for the offset of an error.
struct Counting<'a> {
    data: &'a [u8],
    taken: usize,
}

impl Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.data.len() - self.taken);
        buf[..n].copy_from_slice(&self.data[self.taken..self.taken + n]);
        self.taken += n;
        Ok(n)
    }
}

impl Codec for LzmaRust2 {
    fn decode(props: u8, dict: u32, body: &[u8], size: usize) -> Result<Vec<u8>, Failure> {
        let mut source = Counting { data: body, taken: 0 };
        // The size is given as unknown: the data may go on past it (an end marker, or
        // more), and reading stops once `size` bytes are out, as liblzma's does.
        let mut reader =
            LzmaReader::new_with_props(&mut source, u64::MAX, props, dict, None).map_err(|e| Failure::Invalid {
                at: 0,
                what: format!("decoder setup failed: {e}"),
            })?;
        let mut out = Vec::with_capacity(size);
        let result = (&mut reader).take(size as u64).read_to_end(&mut out);
        drop(reader);
        let at = source.taken as u64;
        match result {
            Ok(_) if out.len() == size => Ok(out),
            // The reader ends early only at an end marker (data that runs out is an error).
            Ok(_) => Err(Failure::EndMarker {
                at: at.min(body.len() as u64),
                decoded: out.len(),
            }),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(Failure::Eof { decoded: out.len() }),
            Err(e) => Err(Failure::Invalid {
                at: at.min(body.len() as u64),
                what: e.to_string(),
            }),
        }
    }

    fn encode(plain: &[u8]) -> Result<Vec<u8>, String> {
        let mut options = LzmaOptions::with_preset(6);
        options.dict_size = 2 << 20;
        options.lc = 3;
        options.lp = 0;
        options.pb = 2;
        let mut writer = LzmaWriter::new_no_header(Vec::with_capacity(plain.len() / 3 + 64), &options, true)
            .map_err(|e| e.to_string())?;
        writer.write_all(plain).map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())
    }
}
