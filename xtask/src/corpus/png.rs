//! PNG files built byte by byte for the samples (DMF's embedded image, the textures the model
//! samples name): IHDR, one IDAT holding a zlib stream of stored (uncompressed) deflate blocks,
//! IEND. No encoder crate is needed for images this small.

/// CRC-32 (IEEE, reflected, as PNG chunks use), bit by bit: the images are tiny.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Adler-32, the zlib stream's checksum.
fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in bytes {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// `data` as a zlib stream of stored deflate blocks (at most 65,535 bytes each).
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut zlib = vec![0x78, 0x01]; // deflate, 32 KiB window, no preset dictionary
    let blocks: Vec<&[u8]> = if data.is_empty() {
        vec![&[]]
    } else {
        data.chunks(0xFFFF).collect()
    };
    for (i, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(i + 1 == blocks.len())); // BFINAL on the last, BTYPE=00 (stored)
        let len = block.len() as u16;
        zlib.extend_from_slice(&len.to_le_bytes());
        zlib.extend_from_slice(&(!len).to_le_bytes());
        zlib.extend_from_slice(block);
    }
    zlib.extend_from_slice(&adler32(data).to_be_bytes());
    zlib
}

/// An 8-bit RGBA PNG of `width` x `height` pixels, row by row from the top.
pub(crate) fn rgba(width: u32, height: u32, pixels: &[[u8; 4]]) -> Vec<u8> {
    assert_eq!(pixels.len(), (width * height) as usize, "one pixel per place");
    let mut raw = Vec::with_capacity(pixels.len() * 4 + height as usize);
    for row in pixels.chunks(width as usize) {
        raw.push(0); // filter type: none
        row.iter().for_each(|pixel| raw.extend_from_slice(pixel));
    }
    let mut png = animbin_dmf::PNG_SIGNATURE.to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8 bits, RGBA, deflate, no filter set, no interlace
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &zlib_stored(&raw));
    chunk(&mut png, b"IEND", &[]);
    png
}
