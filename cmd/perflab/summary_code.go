package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// codeFolders are the input folders whose files make every page: the
// templates are Go templates, and a locale message is put into every page.
// A change to them is a change of code, which the summary puts first.
var codeFolders = []string{"templates", "locales"}

// markupKind is one kind of markup that makes a page do more than show
// text: what the summary calls it, and how it is found in a file. The
// first group of re, when there is one, is what is listed of a match.
type markupKind struct {
	name string
	re   *regexp.Regexp
}

// markupKinds are found in templates and locale files alike, in any case.
var markupKinds = []markupKind{
	{"<script>", regexp.MustCompile(`(?i)<\s*script\b`)},
	{"event handler attribute", regexp.MustCompile(`(?i)<[a-z][^>]*?[\s/"'](on[a-z]+)\s*=`)},
	{"off-site URL", regexp.MustCompile(`(?i)((?:\b[a-z][a-z0-9+.-]*:)?//[a-z0-9\[][^\s"'<>()\\{}]*)`)},
	{"frame or plugin element", regexp.MustCompile(`(?i)<\s*(iframe|frame|frameset|object|embed|applet)\b`)},
	{"script URL", regexp.MustCompile(`(?i)\b((?:java|vb)script\s*:)`)},
	{"style url()", regexp.MustCompile(`(?i)\burl\s*\(`)},
	{"<style>, <base>, <meta http-equiv> or <form>", regexp.MustCompile(`(?i)<\s*(style|base|meta\s+http-equiv|form)\b`)},
}

// codeFileLimit is the size past which a template or locale file is not
// scanned for markup: it is still listed as code to review.
const codeFileLimit = 4 << 20

// codeListLimit is how many changed files, and how many findings of one
// file, the summary lists; codeItemLimit cuts each finding, and
// codeReviewLimit bounds the whole list, in bytes.
const (
	codeListLimit   = 20
	codeItemLimit   = 200
	codeReviewLimit = 32 << 10
)

// codeChange is a file of codeFolders that differs between base and head,
// and the markup the head adds to it.
type codeChange struct {
	path, kind string // "templates/page.html.tmpl", "added" / "changed" / "removed"
	adds       []string
	unread     string // why the file could not be scanned, or ""
}

// codeChanges compares codeFolders beside base and head (results folders)
// file by file. A folder the base lacks counts as empty: all of head's
// files are added.
func codeChanges(base, head string) ([]codeChange, error) {
	var out []codeChange
	for _, folder := range codeFolders {
		b, err := codeFiles(filepath.Join(filepath.Dir(filepath.Clean(base)), folder))
		if err != nil {
			return nil, err
		}
		h, err := codeFiles(filepath.Join(filepath.Dir(filepath.Clean(head)), folder))
		if err != nil {
			return nil, err
		}
		for rel, hf := range h {
			bf, inBase := b[rel]
			c := codeChange{path: folder + "/" + rel, kind: "changed"}
			switch {
			case !inBase:
				c.kind = "added"
			case bytes.Equal(bf.data, hf.data) && bf.unread == hf.unread:
				continue
			}
			c.unread = hf.unread
			if c.unread == "" {
				c.adds = addedMarkup(bf.data, hf.data)
			}
			out = append(out, c)
		}
		for rel := range b {
			if _, ok := h[rel]; !ok {
				out = append(out, codeChange{path: folder + "/" + rel, kind: "removed"})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, nil
}

type codeFile struct {
	data   []byte
	unread string
}

// codeFiles reads every file under dir by its path in dir; a link, a
// special file or a file too large is kept with why it was not read.
// A missing dir has no files.
func codeFiles(dir string) (map[string]codeFile, error) {
	out := map[string]codeFile{}
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return out, nil
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		var f codeFile
		info, err := d.Info()
		switch {
		case err != nil:
			return err
		case !d.Type().IsRegular():
			f.unread = "not a regular file: " + d.Type().String()
		case info.Size() > codeFileLimit:
			f.unread = fmt.Sprintf("%d bytes: too large to scan", info.Size())
		default:
			if f.data, err = os.ReadFile(path); err != nil {
				return err
			}
		}
		out[filepath.ToSlash(rel)] = f
		return nil
	})
	return out, err
}

// addedMarkup lists the markup head holds more often than base, by kind:
// "off-site URL https://example.com/x.js", "<script> ×2".
func addedMarkup(base, head []byte) []string {
	var out []string
	for _, k := range markupKinds {
		before := findMarkup(k, base)
		after := findMarkup(k, head)
		var items []string
		for item, n := range after {
			if n > before[item] {
				items = append(items, item)
			}
		}
		sort.Strings(items)
		for _, item := range items {
			text := k.name
			if item != k.name {
				text += " " + item
			}
			if n := after[item] - before[item]; n > 1 {
				text += fmt.Sprintf(" ×%d", n)
			}
			out = append(out, text)
		}
	}
	return out
}

// findMarkup counts a kind's matches in data, by what is listed of each.
func findMarkup(k markupKind, data []byte) map[string]int {
	out := map[string]int{}
	for _, m := range k.re.FindAllSubmatch(data, -1) {
		item := k.name
		if len(m) > 1 && len(m[1]) > 0 {
			item = strings.ToLower(string(m[1]))
			if k.name == "off-site URL" {
				item = string(m[1]) // a URL's path keeps its case
			}
		}
		out[item]++
	}
	return out
}

// writeCodeReview writes, first in the summary, the files of templates/
// and locales/ a change touches, as code a maintainer must review, with
// the markup each adds; nothing when there is none.
func writeCodeReview(b *strings.Builder, changes []codeChange) {
	if len(changes) == 0 {
		return
	}
	b.WriteString("**⚠ This change edits code: a maintainer must review it before merging.** ")
	b.WriteString("Files in `templates/` and `locales/` make every page of the site (docs/security.md, *Templates and locales are code*); ")
	b.WriteString("the markup listed is what they add that runs, loads or sends something, found by pattern: review every line all the same.\n\n")
	start := b.Len()
	for i, c := range changes {
		line := fmt.Sprintf("- %s (%s): %s\n", mdCode(cutText(c.path, codeItemLimit)), c.kind, codeFindings(c))
		if i == codeListLimit || b.Len()-start+len(line) > codeReviewLimit {
			fmt.Fprintf(b, "- %d more files of code not shown: see the pull request's diff.\n", len(changes)-i)
			break
		}
		b.WriteString(line)
	}
	b.WriteString("\n")
}

// codeFindings says what a changed file adds, within codeListLimit items.
func codeFindings(c codeChange) string {
	switch {
	case c.kind == "removed":
		return "removed"
	case c.unread != "":
		return "not scanned (" + markdownText(c.unread) + ")"
	case len(c.adds) == 0:
		return "adds no script, event handler, off-site URL, frame, script URL or style url()"
	}
	var items []string
	for i, a := range c.adds {
		if i == codeListLimit {
			items = append(items, fmt.Sprintf("and %d more", len(c.adds)-i))
			break
		}
		items = append(items, mdCode(cutText(a, codeItemLimit)))
	}
	return "**adds** " + strings.Join(items, ", ")
}

// cutText cuts s at n bytes, on a character boundary, and marks the cut.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + " …"
}
