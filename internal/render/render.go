// Package render turns a computed report into Markdown and HTML in one
// language: templates hold the structure, internal/locale (go-i18n) the
// labels and stock sentences. A report is a list of sections
// (sections.go), each a view made once from the report and read by both
// templates (a piece of a view holds both formats: rich.go, blocks.go):
// text/template writes the Markdown for GitHub (report.md.tmpl) and
// html/template the HTML (report.html.tmpl in page.html.tmpl). Nothing is
// printed and parsed back; goldmark renders only what people wrote, the
// prose of content/ (internal/markup) and the text of messages.
// TestFormatsAgree (internal/pipeline) holds the formats to the same figures.
//
// It never touches the disk: templates and locales come in as an fs.FS and
// pages go out as bytes.
package render

import (
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"

	"github.com/perflab/perflab/internal/locale"
)

// Renderer holds the parsed templates, the message catalogue and the one
// goldmark instance of a build.
type Renderer struct {
	// RepoURL is the repository's web address, without a trailing slash:
	// logs link to their file there, and reports invite feedback. Empty:
	// no such links.
	RepoURL string
	// BaseURL is the absolute address the site is served at, with a final
	// slash (--base-url): pages name their canonical and language
	// versions' addresses with it. Empty: no such links.
	BaseURL string
	locales *locale.Catalogue
	// mdReports and htmlReports are report.md.tmpl, and report.html.tmpl
	// with page.html.tmpl around it, bound to each language's messages.
	mdReports   map[string]*template.Template
	htmlReports map[string]*htmltemplate.Template
	index       *htmltemplate.Template
	notFound    *htmltemplate.Template
	// proseHTML renders the prose of content/ in each language.
	proseHTML proseMarkdowns
	CSS       []byte
	// mdSize and htmlSize are the lengths of the last report's formats,
	// to size the next one's buffers at once: a buffer that grows copies
	// itself (a fifth of a build's allocations when it did).
	mdSize, htmlSize atomic.Int64
	// markedCache holds go-i18n's text of messages rendered by R, their
	// fields marked, with its HTML, by language, id and ints.
	markedCache sync.Map
}

// New loads templates/ and locales/.
func New(templates, locales fs.FS) (*Renderer, error) {
	cat, err := locale.Load(locales, Languages)
	if err != nil {
		return nil, err
	}
	r := &Renderer{locales: cat}
	r.proseHTML = newProseMarkdowns(func(lang string) string { return r.localizer(lang).T("code.block") })
	md, err := readTemplate(templates, "report.md.tmpl", template.New("report.md.tmpl").Option("missingkey=error").Funcs(mdFuncs).Parse)
	if err != nil {
		return nil, err
	}
	if err := onlySections(md); err != nil {
		return nil, err
	}
	html, err := parseHTML(templates, "report.html.tmpl")
	if err == nil {
		_, err = readTemplate(templates, "page.html.tmpl", html.New("page.html.tmpl").Parse)
	}
	if err != nil {
		return nil, err
	}
	has := func(name string) bool { return html.Lookup(name) != nil }
	if err := missingSection("report.html.tmpl", reportSections, has); err != nil {
		return nil, err
	}
	if err := missingSection("page.html.tmpl", []string{"page-start", "page-end"}, has); err != nil {
		return nil, err
	}
	if r.mdReports, err = perLanguage[*template.Template, template.FuncMap](md, r); err != nil {
		return nil, err
	}
	if r.htmlReports, err = perLanguage[*htmltemplate.Template, htmltemplate.FuncMap](html, r); err != nil {
		return nil, err
	}
	if r.index, err = parseHTML(templates, "index.html.tmpl"); err != nil {
		return nil, err
	}
	if r.notFound, err = parseHTML(templates, "notfound.html.tmpl"); err != nil {
		return nil, err
	}
	if r.CSS, err = fs.ReadFile(templates, "style.css"); err != nil {
		return nil, readError("templates", "style.css", err)
	}
	return r, nil
}

// perLanguage is a copy of t, a template of either package, bound to
// each language's messages (T).
func perLanguage[T interface {
	Clone() (T, error)
	Funcs(F) T
}, F ~map[string]any](t T, r *Renderer) (map[string]T, error) {
	out := map[string]T{}
	for _, l := range Languages {
		c, err := t.Clone()
		if err != nil {
			return nil, err
		}
		out[l.Code] = c.Funcs(F{"T": r.translate(l.Code)})
	}
	return out, nil
}

// mdFuncs are report.md.tmpl's functions; T is bound to a language.
var mdFuncs = template.FuncMap{"T": func(string, ...any) string { return "" }}

func parseHTML(fsys fs.FS, name string) (*htmltemplate.Template, error) {
	t := htmltemplate.New(name).Option("missingkey=error").Funcs(htmltemplate.FuncMap{"T": func(...any) string { return "" }, "join": strings.Join})
	return readTemplate(fsys, name, t.Parse)
}

// readTemplate reads templates/<name> and parses it with parse, either
// template package's.
func readTemplate[T any](fsys fs.FS, name string, parse func(string) (T, error)) (T, error) {
	var zero T
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return zero, readError("templates", name, err)
	}
	t, err := parse(string(src))
	if err != nil {
		return zero, templateError(err)
	}
	return t, nil
}

// readError names a file of templates/ or locales/ that could not be read,
// with what the file system said about it: the file system's own name for
// it, a path inside the folder or on the disk, is left out of the message,
// and kept in the error the message wraps.
func readError(dir, name string, err error) error {
	msg := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err
	}
	return &fileError{msg: dir + "/" + name + ": " + msg.Error(), err: err}
}

type fileError struct {
	msg string
	err error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

// templateError turns "template: x.tmpl:3: msg" into "templates/x.tmpl:3: msg".
func templateError(err error) error {
	return fmt.Errorf("templates/%s", strings.TrimPrefix(err.Error(), "template: "))
}

// localizer is a language's locale.Localizer on a page, which R (rich.go)
// extends with messages whose fields are rich pieces.
type localizer struct {
	*locale.Localizer
	r    *Renderer
	lang string
}

func (r *Renderer) localizer(lang string) *localizer {
	return &localizer{Localizer: r.locales.Localizer(lang), r: r, lang: lang}
}

// translate returns T for templates shared by every page of a language: it
// keeps no state.
func (r *Renderer) translate(lang string) func(string, ...any) string {
	return func(id string, kv ...any) string { return r.locales.Localizer(lang).T(id, kv...) }
}
