//! PNG pictures for the tests, written and read back with the `png` crate (the decoder the
//! readers use is tested against what its encoder writes, sample by sample).

use png::{BitDepth, ColorType};

/// A PNG of `width × height` pixels of `color`, 8-bit samples, row 0 on top.
pub(crate) fn png8(width: u32, height: u32, color: ColorType, samples: &[u8]) -> Vec<u8> {
    encode(width, height, color, BitDepth::Eight, samples)
}

/// A PNG of `width × height` pixels of `color`, 16-bit samples, row 0 on top.
pub(crate) fn png16(width: u32, height: u32, color: ColorType, samples: &[u16]) -> Vec<u8> {
    let bytes: Vec<u8> = samples.iter().flat_map(|v| v.to_be_bytes()).collect();
    encode(width, height, color, BitDepth::Sixteen, &bytes)
}

/// An 8-bit grey PNG of `width × height` from `grey(column, row)` (row 0 at the top).
pub(crate) fn grey8(width: u32, height: u32, grey: impl Fn(u32, u32) -> u8) -> Vec<u8> {
    let samples: Vec<u8> = (0..height)
        .flat_map(|row| (0..width).map(move |column| (column, row)))
        .map(|(c, r)| grey(c, r))
        .collect();
    png8(width, height, ColorType::Grayscale, &samples)
}

/// Writes [`grey8`]'s picture to `path`.
pub(crate) fn write_grey8(
    path: &std::path::Path,
    width: u32,
    height: u32,
    grey: impl Fn(u32, u32) -> u8,
) {
    std::fs::write(path, grey8(width, height, grey)).unwrap();
}

fn encode(width: u32, height: u32, color: ColorType, depth: BitDepth, samples: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(depth);
    encoder.write_header().unwrap().write_image_data(samples).unwrap();
    out
}

/// The pixels of a PNG as 8-bit RGBA, row by row from the top: (width, height, pixels).
pub(crate) fn rgba8(bytes: &[u8]) -> (u32, u32, Vec<[u8; 4]>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut samples = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut samples).unwrap();
    let pixels = samples[..frame.buffer_size()]
        .chunks_exact(frame.color_type.samples())
        .map(|p| match *p {
            [g] => [g, g, g, 255],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a] => [r, g, b, a],
            _ => unreachable!("1 to 4 samples a pixel"),
        })
        .collect();
    (frame.width, frame.height, pixels)
}
