//! The report page: one self-contained HTML file (inline CSS and SVG, no script, nothing
//! fetched from the network).

use super::environment::Environment;

/// A table: a header row and body rows of text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// A caption above the table; empty for none.
    pub caption: String,
    /// Column headings.
    pub header: Vec<String>,
    /// Rows of cells (the first cell of each row is its heading).
    pub rows: Vec<Vec<String>>,
}

/// A figure: an SVG document and its caption.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The file name it is also written to, under `figures/`.
    pub file: String,
    /// The caption.
    pub caption: String,
    /// The SVG document.
    pub svg: String,
}

/// A section of the page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// Paragraphs of plain text.
    pub paragraphs: Vec<String>,
    /// Tables, before the figures.
    pub tables: Vec<Table>,
    /// Figures, in a grid.
    pub figures: Vec<Figure>,
}

/// The page.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The title.
    pub title: String,
    /// Where and when.
    pub environment: Environment,
    /// The configuration as written to `config.toml`.
    pub config_toml: String,
    /// The sections, in order.
    pub sections: Vec<Section>,
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1400px;padding:0 1em;color:#222}\
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:1em 0;font-size:.9em}\
caption{text-align:left;font-weight:bold;padding:.3em 0}\
th,td{border:1px solid #ddd;padding:.25em .6em;text-align:right}\
th:first-child,td:first-child{text-align:left}thead th{background:#f3f3f3}\
.figures{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}\
figure{margin:0}figcaption{font-size:.85em;color:#555;max-width:680px}\
pre{background:#f6f6f6;padding:1em;overflow-x:auto;font-size:.85em}";

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// Renders the page.
pub fn render_page(page: &Page) -> String {
    let mut html = String::new();
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str(&format!(
        "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&page.title)
    ));
    html.push_str(&format!("<h1>{}</h1>\n", escape(&page.title)));
    html.push_str(
        "<p>Data: <a href=\"results.csv\">results.csv</a> (tidy: sampler, dim, n, rep, seed, metric, \
         value), <a href=\"timings.csv\">timings.csv</a>, and the configuration that reproduces them, \
         <a href=\"config.toml\">config.toml</a>. Figures are also in <code>figures/</code>.</p>\n",
    );
    let env = &page.environment;
    let environment = Table {
        caption: "Environment".into(),
        header: vec!["".into(), "".into()],
        rows: vec![
            vec!["poisson-nd version".into(), env.version.clone()],
            vec!["date".into(), env.date_utc.clone()],
            vec!["CPU".into(), env.cpu.clone()],
            vec!["logical cores".into(), env.cores.to_string()],
            vec!["platform".into(), env.platform.clone()],
        ],
    };
    push_table(&mut html, &environment, false);
    for section in &page.sections {
        html.push_str(&format!("<h2>{}</h2>\n", escape(&section.heading)));
        for paragraph in &section.paragraphs {
            html.push_str(&format!("<p>{}</p>\n", escape(paragraph)));
        }
        for table in &section.tables {
            push_table(&mut html, table, true);
        }
        if !section.figures.is_empty() {
            html.push_str("<div class=\"figures\">\n");
            for figure in &section.figures {
                html.push_str(&format!(
                    "<figure id=\"{}\">\n{}\n<figcaption>{}</figcaption>\n</figure>\n",
                    escape(&figure.file),
                    strip_xml_declaration(&figure.svg),
                    escape(&figure.caption)
                ));
            }
            html.push_str("</div>\n");
        }
    }
    html.push_str("<h2>Configuration</h2>\n");
    html.push_str(&format!("<pre>{}</pre>\n</body>\n</html>\n", escape(&page.config_toml)));
    html
}

fn push_table(html: &mut String, table: &Table, with_header: bool) {
    html.push_str("<table>\n");
    if !table.caption.is_empty() {
        html.push_str(&format!("<caption>{}</caption>\n", escape(&table.caption)));
    }
    if with_header {
        html.push_str("<thead><tr>");
        for cell in &table.header {
            html.push_str(&format!("<th>{}</th>", escape(cell)));
        }
        html.push_str("</tr></thead>\n");
    }
    html.push_str("<tbody>\n");
    for row in &table.rows {
        html.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            html.push_str(&format!("<{tag}>{}</{tag}>", escape(cell)));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>\n");
}

/// An SVG document without a leading `<?xml ...?>` declaration, for inlining.
fn strip_xml_declaration(svg: &str) -> &str {
    let trimmed = svg.trim_start();
    match trimmed.strip_prefix("<?xml").and_then(|rest| rest.split_once("?>")) {
        Some((_, rest)) => rest.trim_start(),
        None => trimmed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_inlines_figures_and_escapes_text() {
        let page = Page {
            title: "A <report>".into(),
            environment: Environment {
                version: "0.1.0".into(),
                date_utc: "1970-01-01 00:00:00 UTC".into(),
                cpu: "cpu & co".into(),
                cores: 2,
                platform: "linux-x86_64".into(),
            },
            config_toml: "seed = 1 # <x>".into(),
            sections: vec![Section {
                heading: "2D".into(),
                paragraphs: vec!["r < 1".into()],
                tables: vec![Table {
                    caption: "metrics".into(),
                    header: vec!["metric".into(), "bridson".into()],
                    rows: vec![vec!["points".into(), "10".into()]],
                }],
                figures: vec![Figure {
                    file: "a.svg".into(),
                    caption: "a figure".into(),
                    svg:
                        "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"
                            .into(),
                }],
            }],
        };
        let html = render_page(&page);
        assert!(html.contains("<title>A &lt;report&gt;</title>"));
        assert!(html.contains("cpu &amp; co") && html.contains("r &lt; 1"));
        assert!(html.contains("<figure id=\"a.svg\">\n<svg xmlns"));
        assert!(html.contains("seed = 1 # &lt;x&gt;"));
        assert!(!html.contains("<script") && !html.contains(" src="));
    }
}
