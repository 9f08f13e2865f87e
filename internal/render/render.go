// Package render turns a computed report into Markdown and HTML in one
// language: templates hold the structure, go-i18n the labels and stock
// sentences. A report is a list of sections (sections.go): text/template
// writes each one's Markdown (report.md.tmpl); a section whose HTML
// html/template writes from the same view (report.html.tmpl) is never
// parsed back, and goldmark renders the others, with the prose of
// content/ in them. TestFormatsAgree (internal/pipeline) holds the two
// formats to the same figures.
//
// It never touches the disk: templates and locales come in as an fs.FS and
// pages go out as bytes.
package render

import (
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
	"golang.org/x/text/language"

	"github.com/perflab/perflab/internal/cjk"
	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/yamlfile"
)

// Renderer holds the parsed templates, the message bundle and the one
// goldmark instance of a build.
type Renderer struct {
	// RepoURL is the repository's web address, without a trailing slash:
	// logs link to their file there, and reports invite feedback. Empty:
	// no such links.
	RepoURL string
	// BaseURL is the absolute address the site is served at, with a final
	// slash (--base-url): pages name their canonical and language
	// versions' addresses with it. Empty: no such links.
	BaseURL  string
	bundle   *i18n.Bundle
	messages map[string]map[string]bool     // lang -> message ids
	sources  map[string][]byte              // lang -> its locale file, for the lines of missing messages
	fields   map[string]map[string][]string // lang -> message id -> the fields it inserts
	// fixed holds, per language, go-i18n's text of each message that
	// inserts no field: a label is asked for thousands of times a page.
	fixed map[string]*sync.Map
	// counted holds, per language, the messages with plural forms.
	counted map[string]map[string]bool
	report  *template.Template
	page    *htmltemplate.Template
	// pages is page.html.tmpl bound to each language's messages, so that a
	// page is wrapped without cloning (and escaping again) the template.
	pages map[string]*htmltemplate.Template
	// htmlReports is report.html.tmpl, the HTML of the sections written
	// from their view, bound to each language's messages.
	htmlReports map[string]*htmltemplate.Template
	index       *htmltemplate.Template
	md          goldmark.Markdown
	// proseHTML renders the prose of content/ in each language.
	proseHTML map[string]goldmark.Markdown
	CSS       []byte
	// mdSize is the length of the last report's Markdown, and htmlPerMD
	// the length of its HTML page per 1,000 bytes of Markdown, to size the
	// next one's buffers at once: a report's HTML is nearly twice its
	// Markdown (log lines become anchored spans), and a buffer that grows
	// copies itself (a fifth of a build's allocations when it did).
	mdSize, htmlPerMD atomic.Int64
	// messageCache holds the HTML of messages rendered by R, by their
	// text with fields marked: the same few on every page.
	messageCache sync.Map
}

// reportMarkdown is goldmark as a report's page uses it, with extra
// extensions.
func reportMarkdown(extra ...goldmark.Extender) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(append([]goldmark.Extender{extension.Table, logBlocks{}, chartPictures{}}, extra...)...),
		goldmark.WithParserOptions(parser.WithAttribute(),
			parser.WithASTTransformers(util.Prioritized(rebaseLinks{}, 100), util.Prioritized(onlyIDAttributes{}, 100),
				util.Prioritized(stackTables{}, 300),
				util.Prioritized(readerAttributes{}, 300))),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(statRenderer{}, 100))),
	)
}

// New loads templates/ and locales/.
func New(templates, locales fs.FS) (*Renderer, error) {
	r := &Renderer{
		bundle:   i18n.NewBundle(language.English),
		messages: map[string]map[string]bool{},
		sources:  map[string][]byte{},
		fields:   map[string]map[string][]string{},
		fixed:    map[string]*sync.Map{},
		counted:  map[string]map[string]bool{},
		md:       reportMarkdown(),
	}
	r.bundle.RegisterUnmarshalFunc("yaml", unmarshalLocale)
	for _, l := range Languages {
		name := l.Code + ".yaml"
		data, err := fs.ReadFile(locales, name)
		if err != nil {
			return nil, readError("locales", name, err)
		}
		// Refused here with its line; go-i18n then decodes it the same way.
		if _, errs := yamlfile.Parse(data); errs != nil {
			return nil, fmt.Errorf("locales/%s:%d: %s", name, errs[0].Line, errs[0].Msg)
		}
		// check refuses bidirectional controls and invisible characters
		// in a message, written or referenced (unmarshalLocale shows
		// those a YAML escape writes); a build shows them.
		data = []byte(plain.ShowHiddenText(string(data)))
		mf, err := r.bundle.ParseMessageFileBytes(data, path.Join("locales", name))
		if err != nil {
			return nil, fmt.Errorf("locales/%s: %w", name, err)
		}
		if err := checkMessages(path.Join("locales", name), data, mf.Messages); err != nil {
			return nil, err
		}
		ids := map[string]bool{}
		r.fields[l.Code] = map[string][]string{}
		r.counted[l.Code] = map[string]bool{}
		for _, m := range mf.Messages {
			ids[m.ID] = true
			r.fields[l.Code][m.ID] = messageFields(m)
			r.counted[l.Code][m.ID] = m.Zero != "" || m.One != "" || m.Two != "" || m.Few != "" || m.Many != ""
		}
		r.messages[l.Code] = ids
		r.sources[l.Code] = data
		r.fixed[l.Code] = new(sync.Map)
	}
	r.proseHTML = map[string]goldmark.Markdown{}
	for _, l := range Languages {
		r.proseHTML[l.Code] = proseMarkdown(r.localizer(l.Code).T("code.block"))
	}
	var err error
	if r.report, err = parseText(templates, "report.md.tmpl"); err != nil {
		return nil, err
	}
	if err := onlySections(r.report); err != nil {
		return nil, err
	}
	if r.page, err = parseHTML(templates, "page.html.tmpl"); err != nil {
		return nil, err
	}
	r.pages = map[string]*htmltemplate.Template{}
	for _, l := range Languages {
		t, err := r.page.Clone()
		if err != nil {
			return nil, err
		}
		r.pages[l.Code] = t.Funcs(htmltemplate.FuncMap{"T": r.translate(l.Code)})
	}
	htmlReport, err := parseHTML(templates, "report.html.tmpl")
	if err != nil {
		return nil, err
	}
	r.htmlReports = map[string]*htmltemplate.Template{}
	for _, l := range Languages {
		t, err := htmlReport.Clone()
		if err != nil {
			return nil, err
		}
		r.htmlReports[l.Code] = t.Funcs(htmltemplate.FuncMap{"T": r.translate(l.Code)})
	}
	if r.index, err = parseHTML(templates, "index.html.tmpl"); err != nil {
		return nil, err
	}
	if r.CSS, err = fs.ReadFile(templates, "style.css"); err != nil {
		return nil, readError("templates", "style.css", err)
	}
	return r, nil
}

// unmarshalLocale decodes a locale file for go-i18n as every YAML file is
// decoded, then shows, in every string, the hidden characters that a
// double-quoted value's escapes write ("\u202E"): check refuses them.
func unmarshalLocale(data []byte, v any) error {
	if err := yamlfile.Unmarshal(data, v); err != nil {
		return err
	}
	if p, ok := v.(*any); ok {
		*p = showHiddenIn(*p)
	}
	return nil
}

// showHiddenIn applies plain.ShowHidden to each string of a decoded value.
func showHiddenIn(v any) any {
	switch v := v.(type) {
	case string:
		return plain.ShowHidden(v)
	case map[string]any:
		for k, x := range v {
			v[k] = showHiddenIn(x)
		}
	case []any:
		for i, x := range v {
			v[i] = showHiddenIn(x)
		}
	}
	return v
}

// MissingMessage is a message one language lacks: another language has
// it, or perflab needs it (RequiredMessages).
type MissingMessage struct {
	ID       string
	Required bool // no language has it, and perflab needs it
	// Line is where it belongs in the language's file: the last key
	// that shares its prefix ("rule." for rule.price-missing), or 1.
	Line int
}

// MissingMessages lists, for each language, the messages that another
// language has or perflab needs, and it lacks.
func (r *Renderer) MissingMessages() map[string][]MissingMessage {
	all := map[string]bool{}
	for _, ids := range r.messages {
		for id := range ids {
			all[id] = false
		}
	}
	for _, id := range r.RequiredMessages() {
		all[id] = true
	}
	out := map[string][]MissingMessage{}
	for _, l := range Languages {
		var keys *keyLines
		for id, required := range all {
			if !r.messages[l.Code][id] {
				if keys == nil {
					k := indexKeys(r.sources[l.Code])
					keys = &k
				}
				out[l.Code] = append(out[l.Code], MissingMessage{ID: id, Required: required, Line: keys.groupLine(id)})
			}
		}
		slices.SortFunc(out[l.Code], func(a, b MissingMessage) int { return strings.Compare(a.ID, b.ID) })
	}
	return out
}

// stubFuncs lets templates parse before the per-page functions are bound.
func stubFuncs() map[string]any {
	f := map[string]any{}
	for name := range (&reportPage{}).funcs() {
		f[name] = func(...any) string { return "" }
	}
	return f
}

func parseText(fsys fs.FS, name string) (*template.Template, error) {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, readError("templates", name, err)
	}
	t, err := template.New(name).Option("missingkey=error").Funcs(stubFuncs()).Parse(string(src))
	if err != nil {
		return nil, templateError(err)
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

func parseHTML(fsys fs.FS, name string) (*htmltemplate.Template, error) {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, readError("templates", name, err)
	}
	t, err := htmltemplate.New(name).Option("missingkey=error").Funcs(htmltemplate.FuncMap{"T": func(...any) string { return "" }, "join": strings.Join}).Parse(string(src))
	if err != nil {
		return nil, templateError(err)
	}
	return t, nil
}

// localizer translates message ids. A message a locale lacks, or that
// does not render, never fails a page: perflab check reports it as an
// error on the locale file (see RequiredMessages), and the page shows the
// English message instead, or the id when English lacks it too. Whatever
// check passes, build must pass.
type localizer struct {
	lang     string
	unspaced bool                // the language has no spaces between words
	messages map[string]bool     // the language's message ids
	fields   map[string][]string // the fields each message inserts
	fixed    *sync.Map           // id -> the text of a message without fields
	loc      *i18n.Localizer     // made on first use: most messages are fixed
	r        *Renderer
	// lacked is the first message that was missing or did not render,
	// for tests: pages go on without it.
	lacked error
}

func (r *Renderer) localizer(lang string) *localizer {
	ll, _ := study.LanguageOf(lang)
	return &localizer{lang: lang, unspaced: ll.Unspaced, messages: r.messages[lang], fields: r.fields[lang], fixed: r.fixed[lang], r: r}
}

// has reports whether the language has a message id.
func (l *localizer) has(id string) bool { return l.messages[id] }

// T localizes id with key/value pairs as template data.
func (l *localizer) T(id string, kv ...any) string {
	if !l.messages[id] {
		return l.fallback(id, fmt.Errorf("locales/%s.yaml: no message %q", l.lang, id), kv)
	}
	fixed := len(l.fields[id]) == 0
	if fixed {
		if s, ok := l.fixed.Load(id); ok {
			return s.(string)
		}
	}
	data := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		data[fmt.Sprint(kv[i])] = kv[i+1]
	}
	if l.loc == nil {
		l.loc = i18n.NewLocalizer(l.r.bundle, l.lang)
	}
	// N is the count a message's plural forms follow ("1 node", "2 nodes").
	var count any
	if l.r.counted[l.lang][id] {
		count = data["N"]
	}
	s, err := l.loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil {
		return l.fallback(id, fmt.Errorf("locales/%s.yaml: message %q: %w", l.lang, id, err), kv)
	}
	s = l.tidy(s)
	if fixed {
		l.fixed.Store(id, s)
	}
	return s
}

// fallback is what a page shows for a message its language lacks (or
// that did not render): the English message, else the id.
func (l *localizer) fallback(id string, err error, kv []any) string {
	if l.lacked == nil {
		l.lacked = err
	}
	if l.lang == "en" || !l.r.messages["en"][id] {
		return id
	}
	en := l.r.localizer("en")
	s := en.T(id, kv...)
	if en.lacked != nil {
		return id
	}
	return s
}

// sentenceBreak is what stands between two sentences: a space, none in a
// language written without spaces ("…。处于边界").
func (l *localizer) sentenceBreak() string {
	if l.unspaced {
		return ""
	}
	return " "
}

// tidy drops, in a language written without spaces (Chinese, Japanese), a space between two Chinese or
// Japanese characters. A message keeps a space around a field so that Latin
// text stays apart ("在 {{.Workload}} 上" for ShareGPT); when the field is a
// Chinese or Japanese name, the space would split the sentence.
func (l *localizer) tidy(s string) string {
	if !l.unspaced || !strings.Contains(s, " ") {
		return s
	}
	return l.figure(joinCJK(s))
}

// joinCJK removes each run of spaces whose neighbours are both Chinese or
// Japanese characters (Han, kana, the prolonged sound mark) or full-width
// punctuation (。、（）「」：...).
func joinCJK(s string) string {
	var b strings.Builder // written only once a space is dropped
	kept := 0             // s[:kept] is in b, less the spaces dropped
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], ' ') // spaces are rare: skip to the next
		if j < 0 {
			break
		}
		start, end := i+j, i+j
		for end < len(s) && s[end] == ' ' {
			end++
		}
		if start > 0 && end < len(s) {
			before, _ := utf8.DecodeLastRuneInString(s[:start])
			after, _ := utf8.DecodeRuneInString(s[end:])
			if cjk.IsAny(before) && cjk.IsAny(after) {
				b.WriteString(s[kept:start])
				kept = end
			}
		}
		i = end
	}
	if kept == 0 {
		return s // nothing dropped: no copy
	}
	b.WriteString(s[kept:])
	return b.String()
}

// translate returns T for templates shared by every page of a language: it
// keeps no state.
func (r *Renderer) translate(lang string) func(string, ...any) string {
	return func(id string, kv ...any) string { return r.localizer(lang).T(id, kv...) }
}

// fieldsOf lists the fields a message's text inserts; ok is false unless
// the text is literal text and {{.Field}} insertions only.
func fieldsOf(text string) (fields []string, ok bool) {
	rest := text
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			return fields, !strings.Contains(rest, "}}")
		}
		j := strings.Index(rest[i:], "}}")
		if j < 0 || strings.Contains(rest[:i], "}}") {
			return nil, false
		}
		field, ok := strings.CutPrefix(rest[i+2:i+j], ".")
		if !ok || field == "" {
			return nil, false
		}
		for _, c := range field {
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return nil, false
			}
		}
		fields = append(fields, field)
		rest = rest[i+j+2:]
	}
}

// esc escapes text from results/ for use inline in Markdown, so that no
// contributor string becomes markup.
func esc(s string) string {
	s = plain.Line(s)
	if !strings.ContainsAny(s, escaped) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, c := range s {
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '#', '{', '}', '!', '&':
			b.WriteByte('\\')
		case '\n':
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// code writes text from results/ as a Markdown code span on one line.
func code(s string) string { return CodeSpan(s) }

// CodeSpan writes a line as a Markdown code span, shown verbatim whatever
// it holds: its fence is longer than any run of backticks in it, and line
// breaks and control characters are made plain text first.
func CodeSpan(s string) string {
	s = plain.Line(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// escaped are the characters esc escapes or replaces.
const escaped = "\\`*_[]<>|#{}!&\n"

// fence wraps text in a fenced code block longer than any backtick run in it.
func fence(text, info string) string { return newFenced(text).with(info) }

// fenced is a text made safe for a fenced code block, with its fence: a
// block shown under two info strings is made safe once.
type fenced struct{ marker, body string }

func newFenced(text string) fenced {
	text = plain.Block(text)
	n := 3
	if strings.Contains(text, "```") {
		run := 0
		for i := 0; i < len(text); i++ {
			if text[i] == '`' {
				run++
				if run >= n {
					n = run + 1
				}
			} else {
				run = 0
			}
		}
	}
	f := "```"
	if n > 3 {
		f = strings.Repeat("`", n)
	}
	return fenced{marker: f, body: strings.TrimRight(text, "\n")}
}

// with is the block under an info string.
func (f fenced) with(info string) string {
	return f.marker + info + "\n" + f.body + "\n" + f.marker + "\n"
}
