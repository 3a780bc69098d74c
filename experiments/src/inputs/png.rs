//! PNG pictures (density maps, masks) read with the `png` crate into a [`Raster`] of values
//! in `[0, 1]`.
//!
//! - 8-bit samples are divided by 255, 16-bit ones by 65535: black is 0, white 1.
//! - A grey picture gives its grey value; a colour picture its **red** channel (paint the map
//!   in red, or in grey, where all channels agree). Alpha is ignored, so a transparent pixel
//!   counts by its colour. Palette pictures are expanded to their colours first; grey pictures
//!   of 1, 2 or 4 bits are scaled to 8 bits by the decoder (1-bit white is 1).
//! - Rows are kept as stored: `values[row * width + column]`, row 0 being the picture's **top**
//!   row. The library places it in the box (row 0 at the largest axis-1 value).

use super::{InputError, read_bytes};
use std::path::Path;

/// A picture as numbers: `height` rows of `width` values in `[0, 1]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Raster {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Row-major values, `values[row * width + column]`, row 0 the top row of the picture.
    pub values: Vec<f64>,
}

impl Raster {
    /// The value at `column`, `row` (row 0 at the top), or `None` outside the picture.
    pub fn get(&self, column: usize, row: usize) -> Option<f64> {
        (column < self.width && row < self.height).then(|| self.values[row * self.width + column])
    }
}

/// Reads the PNG file at `path`.
pub fn read_png(path: &Path) -> Result<Raster, InputError> {
    decode_png(&read_bytes(path)?, &path.display().to_string())
}

/// The width and height a PNG's header (its first chunk, IHDR) states, if `bytes` begin
/// with the PNG signature and that chunk.
fn stated_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    let word = |at: usize| bytes.get(at..at + 4)?.try_into().ok().map(u32::from_be_bytes);
    (bytes.get(..8)? == SIGNATURE && bytes.get(12..16)? == b"IHDR").then_some(())?;
    Some((word(16)?, word(20)?))
}

/// Reads a PNG from its bytes; `name` is what messages call them.
///
/// ```
/// use experiments::inputs::png::decode_png;
/// // A 2 × 1 grey picture: black, then white.
/// let mut bytes = Vec::new();
/// let mut encoder = png::Encoder::new(&mut bytes, 2, 1);
/// encoder.set_color(png::ColorType::Grayscale);
/// encoder.write_header().unwrap().write_image_data(&[0, 255]).unwrap();
/// let raster = decode_png(&bytes, "mask.png")?;
/// assert_eq!((raster.width, raster.height, raster.values), (2, 1, vec![0.0, 1.0]));
/// assert!(decode_png(b"not a picture", "mask.png").is_err());
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_png(bytes: &[u8], name: &str) -> Result<Raster, InputError> {
    let undecodable =
        |e: png::DecodingError| InputError::invalid(name, format!("not a decodable PNG ({e})"));
    // The decoder's own buffers: at most 8 bytes a pixel (RGBA, 16 bits), and some slack.
    let limits = png::Limits { bytes: (8 * MAX_PIXELS + (1 << 20)) as usize };
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), limits);
    // Palettes to their colours, grey of 1, 2 or 4 bits scaled to 8 bits (1-bit white is
    // 255), transparency to an alpha channel (which is then ignored).
    decoder.set_transformations(png::Transformations::EXPAND);
    // The size the header states is checked before anything is decoded: a small file can
    // claim a huge picture. Read from the header itself where it is one (the decoder's own
    // reading of it refuses the largest sizes as a memory limit, which is no help to a
    // reader of the message).
    if let Some((width, height)) = stated_size(bytes) {
        refuse_large(width, height, name)?;
    }
    let mut reader = decoder.read_info().map_err(undecodable)?;
    let (width, height) = reader.info().size();
    refuse_large(width, height, name)?;
    let size = reader.output_buffer_size().ok_or_else(|| {
        InputError::invalid(name, "the picture's size overflows the address space".to_string())
    })?;
    let mut samples = vec![0; size];
    let frame = reader.next_frame(&mut samples).map_err(undecodable)?;
    let (width, height) = (frame.width as usize, frame.height as usize);
    let samples = &samples[..frame.buffer_size()];
    let channels = frame.color_type.samples();
    let values = match frame.bit_depth {
        png::BitDepth::Eight => eight_bit(samples, channels),
        png::BitDepth::Sixteen => sixteen_bit(samples, channels),
        other => {
            return Err(InputError::invalid(
                name,
                format!("unsupported PNG pixel layout {:?} of {other:?}", frame.color_type),
            ));
        }
    };
    Ok(Raster { width, height, values })
}

/// Refuses a picture of more than [`MAX_PIXELS`] before it is decoded.
fn refuse_large(width: u32, height: u32, name: &str) -> Result<(), InputError> {
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PIXELS {
        return Err(InputError::invalid(
            name,
            format!(
                "the picture is {width}×{height} = {pixels} pixels, more than the {MAX_PIXELS} \
                 (8192×8192) an input picture may have"
            ),
        ));
    }
    Ok(())
}

/// The most pixels an input picture may have: 2^26 (8192 × 8192), 512 MiB as the values the
/// samplers read (docs/limits.md).
pub const MAX_PIXELS: u64 = 1 << 26;

/// The first channel of every pixel of `channels` 8-bit samples, over 255.
fn eight_bit(samples: &[u8], channels: usize) -> Vec<f64> {
    samples.chunks_exact(channels).map(|pixel| f64::from(pixel[0]) / 255.0).collect()
}

/// The first channel of every pixel of `channels` 16-bit samples (big-endian, as PNG stores
/// them), over 65535.
fn sixteen_bit(samples: &[u8], channels: usize) -> Vec<f64> {
    let first = |pixel: &[u8]| f64::from(u16::from_be_bytes([pixel[0], pixel[1]]));
    samples.chunks_exact(2 * channels).map(|pixel| first(pixel) / 65535.0).collect()
}
