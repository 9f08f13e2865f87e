package pipeline

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/render"
)

type urlset struct {
	URLs []struct {
		Loc   string `xml:"loc"`
		Links []struct {
			Rel      string `xml:"rel,attr"`
			Hreflang string `xml:"hreflang,attr"`
			Href     string `xml:"href,attr"`
		} `xml:"http://www.w3.org/1999/xhtml link"`
	} `xml:"url"`
}

type sitemapIndex struct {
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

func TestExtrasWithBaseURL(t *testing.T) {
	t.Parallel()
	d := repoDirs
	d.BaseURL = "https://perflab.github.io/perflab" // no final slash: one is added
	const base = "https://perflab.github.io/perflab/"
	_, files := buildRepo(t, d)

	if data, ok := files[".nojekyll"]; !ok || len(data) != 0 {
		t.Error("no empty .nojekyll")
	}
	if got, want := string(files["robots.txt"]), "User-agent: *\nAllow: /\nSitemap: "+base+"sitemap.xml\n"; got != want {
		t.Errorf("robots.txt = %q, want %q", got, want)
	}

	var idx sitemapIndex
	if err := xml.Unmarshal(files["sitemap.xml"], &idx); err != nil {
		t.Fatalf("sitemap.xml: %v", err)
	}
	if len(idx.Sitemaps) != len(render.Languages) {
		t.Fatalf("sitemap.xml lists %d sitemaps, want one per language", len(idx.Sitemaps))
	}
	listed := map[string]bool{}
	for i, l := range render.Languages {
		if want := base + l.Code + "/sitemap.xml"; idx.Sitemaps[i].Loc != want {
			t.Errorf("sitemap %d = %s, want %s", i, idx.Sitemaps[i].Loc, want)
		}
		var us urlset
		name := l.Code + "/sitemap.xml"
		if err := xml.Unmarshal(files[name], &us); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, u := range us.URLs {
			path, ok := strings.CutPrefix(u.Loc, base)
			if !ok {
				t.Errorf("%s: %s is not under the base URL", name, u.Loc)
				continue
			}
			if _, ok := files[path]; !ok {
				t.Errorf("%s lists %s, which the site does not have", name, u.Loc)
			}
			if listed[path] {
				t.Errorf("%s is listed twice", path)
			}
			listed[path] = true
			if path != "index.html" && !strings.HasPrefix(path, l.Code+"/") {
				t.Errorf("%s lists %s of another language", name, path)
			}
			if strings.HasPrefix(path, l.Code+"/") && len(u.Links) != len(render.Languages) {
				t.Errorf("%s: %s has %d hreflang alternates, want %d", name, path, len(u.Links), len(render.Languages))
			}
			for _, alt := range u.Links {
				if alt.Rel != "alternate" || alt.Href != base+alt.Hreflang+strings.TrimPrefix(path, l.Code) {
					t.Errorf("%s: %s: bad alternate %+v", name, path, alt)
				}
			}
		}
	}
	for _, name := range files.Names() {
		if strings.HasSuffix(name, ".html") && name != "404.html" && !listed[name] {
			t.Errorf("page %s is in no sitemap", name)
		}
	}
	if !bytes.Contains(files["404.html"], []byte(`href="`+base+`index.html"`)) {
		t.Error("404.html does not link to the landing page by absolute address")
	}
}

func TestExtrasWithoutBaseURL(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	for _, name := range []string{"sitemap.xml", "en/sitemap.xml"} {
		if _, ok := files[name]; ok {
			t.Errorf("%s written without a base URL: sitemaps need absolute URLs", name)
		}
	}
	if got := string(files["robots.txt"]); got != "User-agent: *\nAllow: /\n" {
		t.Errorf("robots.txt = %q", got)
	}
	page := string(files["404.html"])
	for _, want := range []string{`href="index.html"`, `<html lang="en">`, `lang="zh"`, `lang="ja"`} {
		if !strings.Contains(page, want) {
			t.Errorf("404.html lacks %s", want)
		}
	}
	for _, bad := range []string{"<script", "<link", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("404.html is not self-contained: has %s", bad)
		}
	}
}

func TestBadBaseURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"ORG.github.io/REPO", "ftp://x/", "https:///x", "https://x/?a=1"} {
		d := repoDirs
		d.BaseURL = u
		if _, err := siteFiles(d); err == nil || !strings.Contains(err.Error(), "--base-url") {
			t.Errorf("base URL %q: err = %v, want a --base-url error", u, err)
		}
	}
}

func TestExtrasDeterministic(t *testing.T) {
	t.Parallel()
	d := repoDirs
	d.BaseURL = "https://example.org/sub/"
	_, a := buildRepo(t, d)
	_, b := buildRepo(t, d)
	for _, name := range []string{"sitemap.xml", "en/sitemap.xml", "zh/sitemap.xml", "ja/sitemap.xml", "robots.txt", "404.html"} {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}
