package study

import (
	"net/url"
	"strings"
)

// Source is the published report a study was imported from: its title
// and, when it has one, its web address, cited in the report's setup.
type Source struct {
	Title string
	URL   string // an http(s) address, or empty
	Pos   Pos
}

// source reads a study.yaml's source: a title, and an address that must
// be an absolute http or https URL (a report links to it).
func (l *loader) source(m *mapping, at Pos) *Source {
	src := &Source{Title: m.str("title", "source", true), URL: m.str("url", "source", false), Pos: at}
	if src.URL != "" {
		u, err := url.Parse(src.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.ContainsAny(src.URL, " \t\n<>\"") {
			l.problem(m.pos("url"), "source: url %q is not a web address: write the article's https address, or leave url out", src.URL)
			src.URL = ""
		}
	}
	if src.Title == "" {
		return nil
	}
	return src
}
