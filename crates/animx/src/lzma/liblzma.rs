//! The native LZMA1 codec: liblzma through xz2.
//!
//! The data is decoded with liblzma's `.lzma` ("LZMA_Alone") decoder behind a synthetic
//! 13-byte header that declares an unknown size, so the end marker is optional. The encoder
//! is liblzma's LZMA_Alone encoder, whose 13-byte header is dropped (xz2 exposes no raw
//! LZMA1 encoder).

use xz2::stream::{Action, LzmaOptions, Status, Stream};

use super::{Codec, Failure};

/// liblzma (C) through xz2.
pub(super) struct Liblzma;

impl Codec for Liblzma {
    fn decode(props: u8, dict: u32, body: &[u8], size: usize) -> Result<Vec<u8>, Failure> {
        let invalid = |at: u64, e: xz2::stream::Error| Failure::Invalid {
            at,
            what: e.to_string(),
        };
        let mut alone = [0xFFu8; 13];
        alone[0] = props;
        alone[1..5].copy_from_slice(&dict.to_le_bytes());
        let mut stream = Stream::new_lzma_decoder(u64::from(dict) + (64 << 20)).map_err(|e| Failure::Invalid {
            at: 0,
            what: format!("decoder setup failed: {e}"),
        })?;
        let mut out = Vec::with_capacity(size);
        stream
            .process_vec(&alone, &mut out, Action::Run)
            .map_err(|e| invalid(0, e))?;
        let mut input = body;
        while out.len() < size {
            let before_in = stream.total_in();
            let before_out = out.len();
            let status = stream.process_vec(input, &mut out, Action::Run);
            let consumed = (stream.total_in() - before_in) as usize;
            let data_pos = (stream.total_in() - 13).min(body.len() as u64);
            let status = status.map_err(|e| invalid(data_pos, e))?;
            input = &input[consumed.min(input.len())..];
            if out.len() >= size {
                break;
            }
            if status == Status::StreamEnd {
                return Err(Failure::EndMarker {
                    at: data_pos,
                    decoded: out.len(),
                });
            }
            if consumed == 0 && out.len() == before_out {
                return Err(Failure::Eof { decoded: out.len() });
            }
        }
        Ok(out)
    }

    fn encode(plain: &[u8]) -> Result<Vec<u8>, String> {
        let fail = |e: xz2::stream::Error| e.to_string();
        let mut options = LzmaOptions::new_preset(6).map_err(fail)?;
        options
            .dict_size(2 << 20)
            .literal_context_bits(3)
            .literal_position_bits(0)
            .position_bits(2);
        let mut stream = Stream::new_lzma_encoder(&options).map_err(fail)?;
        let mut alone = Vec::with_capacity(plain.len() / 3 + 64);
        let mut input = plain;
        loop {
            if alone.capacity() - alone.len() < 4096 {
                alone.reserve(alone.capacity().max(4096));
            }
            let before = stream.total_in();
            let status = stream.process_vec(input, &mut alone, Action::Finish).map_err(fail)?;
            input = &input[(stream.total_in() - before) as usize..];
            if status == Status::StreamEnd {
                break;
            }
        }
        // The .lzma header: 5 property bytes, then the size (unknown, all ones); then the data.
        Ok(alone.get(13..).unwrap_or_default().to_vec())
    }
}
