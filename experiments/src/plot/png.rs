//! Rasters inside the SVG figures: compressed palette PNGs as base64 data URIs, and
//! the `<image>` element that places one over a plotting area.

/// Encodes `pixels` (palette indices, `width × height`, top row first) as a compressed
/// palette PNG, the palette's entries given as RGBA (an alpha below 255 is written as the
/// entry's transparency).
pub(crate) fn palette_png(
    width: u32,
    height: u32,
    pixels: &[u8],
    palette: &[[u8; 4]],
) -> Result<Vec<u8>, String> {
    let failed = |e: png::EncodingError| format!("cannot encode a {width}×{height} raster: {e}");
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        // Two colours (a dot layer) pack eight pixels to the byte.
        let two = palette.len() <= 2;
        encoder.set_depth(if two { png::BitDepth::One } else { png::BitDepth::Eight });
        encoder.set_compression(png::Compression::High);
        encoder.set_palette(palette.iter().flat_map(|c| [c[0], c[1], c[2]]).collect::<Vec<_>>());
        if palette.iter().any(|c| c[3] < 255) {
            encoder.set_trns(palette.iter().map(|c| c[3]).collect::<Vec<_>>());
        }
        let mut writer = encoder.write_header().map_err(failed)?;
        if two {
            let rows = pixels.chunks(width.max(1) as usize);
            let packed: Vec<u8> = rows
                .flat_map(|row| {
                    row.chunks(8).map(|byte| {
                        byte.iter().enumerate().fold(0u8, |acc, (i, &p)| acc | ((p & 1) << (7 - i)))
                    })
                })
                .collect();
            writer.write_image_data(&packed).map_err(failed)?;
        } else {
            writer.write_image_data(pixels).map_err(failed)?;
        }
        writer.finish().map_err(failed)?;
    }
    Ok(out)
}

/// An opaque palette from RGB colours.
pub(crate) fn opaque(colours: &[[u8; 3]]) -> Vec<[u8; 4]> {
    colours.iter().map(|&[r, g, b]| [r, g, b, 255]).collect()
}

/// An SVG `<image>` showing `png` stretched over the box `(x, y, width, height)` (SVG pixels);
/// `pixelated` keeps its pixels square when enlarged (a grid of values, not a picture).
pub(crate) fn image_element(
    png: &[u8],
    (x, y, width, height): (i32, i32, i32, i32),
    pixelated: bool,
) -> String {
    let style = if pixelated {
        " style=\"image-rendering:pixelated;image-rendering:crisp-edges\""
    } else {
        ""
    };
    format!(
        "<image x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\" \
         preserveAspectRatio=\"none\"{style} href=\"data:image/png;base64,{}\"/>\n",
        base64(png)
    )
}

/// Standard base64 with padding.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let b = [group[0], *group.get(1).unwrap_or(&0), *group.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= group.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_pads() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn png_decodes_to_the_palette_colours() {
        let palette = [[0, 0, 0, 0], [255, 10, 20, 255]];
        // Two colours (packed bits, a row of 9 pixels over two bytes) and many (bytes).
        let pixels = [0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0];
        let png = palette_png(9, 2, &pixels, &palette).unwrap();
        let (width, back) = rgba(&png);
        assert_eq!((width, back.len()), (9, 18));
        assert_eq!(back[1], [255, 10, 20, 255]);
        assert_eq!(back[8], [255, 10, 20, 255]);
        assert_eq!(back[9], [255, 10, 20, 255]);
        assert_eq!(back[0][3], 0);
        let three = [[0, 0, 0, 255], [1, 2, 3, 255], [9, 9, 9, 255]];
        let png = palette_png(3, 1, &[2, 1, 0], &three).unwrap();
        assert_eq!(rgba(&png).1[0], [9, 9, 9, 255]);
    }

    /// The width and the RGBA pixels of a palette PNG, expanded by the decoder.
    fn rgba(png: &[u8]) -> (u32, Vec<[u8; 4]>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut samples = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut samples).unwrap();
        let pixels = samples[..frame.buffer_size()].chunks_exact(frame.color_type.samples());
        let rgba = |p: &[u8]| [p[0], p[1], p[2], p.get(3).copied().unwrap_or(255)];
        (frame.width, pixels.map(rgba).collect())
    }
}
