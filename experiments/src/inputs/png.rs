//! PNG pictures (density maps, masks) read with the `image` crate into a [`Raster`] of values
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
use image::{DynamicImage, ImageFormat};
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
/// let picture = image::GrayImage::from_raw(2, 1, vec![0, 255]).unwrap();
/// let mut bytes = std::io::Cursor::new(Vec::new());
/// picture.write_to(&mut bytes, image::ImageFormat::Png).unwrap();
/// let raster = decode_png(bytes.get_ref(), "mask.png")?;
/// assert_eq!((raster.width, raster.height, raster.values), (2, 1, vec![0.0, 1.0]));
/// assert!(decode_png(b"not a picture", "mask.png").is_err());
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_png(bytes: &[u8], name: &str) -> Result<Raster, InputError> {
    let undecodable =
        |e: image::ImageError| InputError::invalid(name, format!("not a decodable PNG ({e})"));
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(bytes), ImageFormat::Png);
    // The size the header states is checked before anything is decoded: a small file can
    // claim a huge picture. Read from the header itself where it is one (the decoder's own
    // reading of it refuses the largest sizes as a memory limit, which is no help to a
    // reader of the message).
    let (width, height) = match stated_size(bytes) {
        Some(size) => size,
        None => reader().into_dimensions().map_err(undecodable)?,
    };
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
    let mut decoder = reader();
    let mut limits = image::Limits::default();
    // The decoder's own buffers: at most 8 bytes a pixel (RGBA, 16 bits), and some slack.
    limits.max_alloc = Some(8 * MAX_PIXELS + (1 << 20));
    decoder.limits(limits);
    let picture = decoder.decode().map_err(undecodable)?;
    let (width, height) = (picture.width() as usize, picture.height() as usize);
    let values = match picture {
        DynamicImage::ImageLuma8(p) => eight_bit(p.as_raw(), 1),
        DynamicImage::ImageLumaA8(p) => eight_bit(p.as_raw(), 2),
        DynamicImage::ImageRgb8(p) => eight_bit(p.as_raw(), 3),
        DynamicImage::ImageRgba8(p) => eight_bit(p.as_raw(), 4),
        DynamicImage::ImageLuma16(p) => sixteen_bit(p.as_raw(), 1),
        DynamicImage::ImageLumaA16(p) => sixteen_bit(p.as_raw(), 2),
        DynamicImage::ImageRgb16(p) => sixteen_bit(p.as_raw(), 3),
        DynamicImage::ImageRgba16(p) => sixteen_bit(p.as_raw(), 4),
        other => {
            return Err(InputError::invalid(
                name,
                format!("unsupported PNG pixel layout {:?}", other.color()),
            ));
        }
    };
    Ok(Raster { width, height, values })
}

/// The most pixels an input picture may have: 2^26 (8192 × 8192), 512 MiB as the values the
/// samplers read (docs/limits.md).
pub const MAX_PIXELS: u64 = 1 << 26;

/// The first channel of every pixel of `channels` 8-bit samples, over 255.
fn eight_bit(samples: &[u8], channels: usize) -> Vec<f64> {
    samples.chunks_exact(channels).map(|pixel| f64::from(pixel[0]) / 255.0).collect()
}

/// The first channel of every pixel of `channels` 16-bit samples, over 65535.
fn sixteen_bit(samples: &[u16], channels: usize) -> Vec<f64> {
    samples.chunks_exact(channels).map(|pixel| f64::from(pixel[0]) / 65535.0).collect()
}
