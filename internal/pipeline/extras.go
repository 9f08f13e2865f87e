package pipeline

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"

	"github.com/perflab/perflab/internal/render"
)

// addExtras adds the files a static host and crawlers look for, computed from
// the pages already in files: .nojekyll (GitHub Pages serves the tree as is),
// robots.txt, 404.html and, when d.BaseURL is set, a sitemap per language
// (<lang>/sitemap.xml) and a sitemap index (sitemap.xml).
//
// Sitemaps must hold absolute URLs (sitemaps.org), and a build without
// --base-url does not know where it will be served, so it writes none, and
// robots.txt names no sitemap. Pages of a language are the HTML files under
// <lang>/; the pages at the top of the site (the landing page) are listed in
// the sitemap of the first language. 404.html is never listed.
func addExtras(r *render.Renderer, files *outputs, d Dirs) error {
	base, err := normalizeBaseURL(d.BaseURL)
	if err != nil {
		return err
	}
	if err := files.Add(".nojekyll", []byte{}); err != nil {
		return err
	}
	notFound, err := r.NotFound(base + "index.html")
	if err != nil {
		return err
	}
	if err := files.Add("404.html", notFound); err != nil {
		return err
	}
	robots := "User-agent: *\nAllow: /\n"
	if base != "" {
		// Crawlers read robots.txt at the root of a host only; under a
		// project sub-path this file is informative, the sitemap is not.
		robots += "Sitemap: " + base + "sitemap.xml\n"
	}
	if err := files.Add("robots.txt", []byte(robots)); err != nil {
		return err
	}
	if base == "" {
		return nil
	}
	pages := map[string][]string{} // lang -> site paths, sorted
	for _, name := range files.Names() {
		if !strings.HasSuffix(name, ".html") || name == "404.html" {
			continue
		}
		lang := render.Languages[0].Code
		if i := strings.IndexByte(name, '/'); i > 0 && isLanguage(name[:i]) {
			lang = name[:i]
		}
		pages[lang] = append(pages[lang], name)
	}
	var index bytes.Buffer
	index.WriteString(xml.Header)
	index.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range render.Languages {
		var sm bytes.Buffer
		sm.WriteString(xml.Header)
		sm.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
		for _, name := range pages[l.Code] {
			fmt.Fprintf(&sm, "<url><loc>%s</loc>", xmlEscape(base+name))
			if rest, ok := strings.CutPrefix(name, l.Code+"/"); ok {
				for _, other := range render.Languages {
					alt := other.Code + "/" + rest
					if files.Has(alt) {
						fmt.Fprintf(&sm, "\n  <xhtml:link rel=\"alternate\" hreflang=\"%s\" href=\"%s\"/>", other.Code, xmlEscape(base+alt))
					}
				}
				sm.WriteString("\n")
			}
			sm.WriteString("</url>\n")
		}
		sm.WriteString("</urlset>\n")
		if err := files.Add(l.Code+"/sitemap.xml", sm.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(&index, "<sitemap><loc>%s</loc></sitemap>\n", xmlEscape(base+l.Code+"/sitemap.xml"))
	}
	index.WriteString("</sitemapindex>\n")
	return files.Add("sitemap.xml", index.Bytes())
}

// normalizeBaseURL checks --base-url and gives it a final slash; "" stays "".
func normalizeBaseURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--base-url %q: want the absolute http(s) address the site is served at, such as https://ORG.github.io/REPO/", s)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String(), nil
}

func isLanguage(code string) bool {
	for _, l := range render.Languages {
		if l.Code == code {
			return true
		}
	}
	return false
}

func xmlEscape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
