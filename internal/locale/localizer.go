package locale

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/perflab/perflab/internal/cjk"
)

// Localizer translates message ids in one language. A message a locale
// lacks, or that does not render, never fails a page: perflab check
// reports it as an error on the locale file (see MissingMessages), and the
// page shows the English message instead, or the id when English lacks it
// too. Whatever check passes, build must pass.
type Localizer struct {
	lang     string
	unspaced bool                // the language has no spaces between words
	messages map[string]bool     // the language's message ids
	fields   map[string][]string // the fields each message inserts
	filled   *sync.Map           // id and ints -> go-i18n's text, its text fields marked (T)
	loc      *i18n.Localizer     // made on first use: most messages are fixed
	c        *Catalogue
	// lacked is the first message that was missing or did not render,
	// for tests: pages go on without it.
	lacked error
}

// Localizer is a new localizer of lang; it keeps the first message it
// lacked, so a page has its own.
func (c *Catalogue) Localizer(lang string) *Localizer {
	return &Localizer{lang: lang, unspaced: c.unspaced[lang], messages: c.messages[lang], fields: c.fields[lang], filled: c.filled[lang], c: c}
}

// Has reports whether the language has a message id.
func (l *Localizer) Has(id string) bool { return l.messages[id] }

// Lacked is the first message that was missing or did not render, or nil.
func (l *Localizer) Lacked() error { return l.lacked }

// T localizes id with key/value pairs as template data.
//
// A message is text and {{.Field}} insertions (messages.go), so go-i18n's
// text of it depends on the language, the id and the ints it counts
// only: it is asked once with a mark for each text field, and kept
// (filled); each call puts its texts in the marks' places, in one pass.
func (l *Localizer) T(id string, kv ...any) string {
	if !l.messages[id] {
		return l.fallback(id, fmt.Errorf("locales/%s.yaml: no message %q", l.lang, id), kv)
	}
	if len(l.fields[id]) == 0 {
		kv = nil // a message without fields: the same text whatever it is given
	}
	key, texts, cached := textKey(id, kv)
	if cached {
		if s, ok := l.filled.Load(key); ok {
			return l.Tidy(fill(s.(string), texts))
		}
	}
	data := templateData(kv, cached)
	if l.loc == nil {
		l.loc = i18n.NewLocalizer(l.c.bundle, l.lang)
	}
	// N is the count a message's plural forms follow ("1 node", "2 nodes").
	var count any
	if l.c.counted[l.lang][id] {
		count = data["N"]
	}
	s, err := l.loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil {
		return l.fallback(id, fmt.Errorf("locales/%s.yaml: message %q: %w", l.lang, id, err), kv)
	}
	if cached {
		l.filled.Store(key, s)
		s = fill(s, texts)
	}
	return l.Tidy(s)
}

// Marks stand for a message's text fields in the text go-i18n fills
// once: private-use characters, which no message holds.
const textMarkOpen, textMarkClose = '\ue002', '\ue003'

// textKey is the key the filled text of a message is kept under (the id
// and the ints) and its texts in mark order; cached is false when a value
// is neither text nor an int.
func textKey(id string, kv []any) (key string, texts []string, cached bool) {
	if len(kv) == 0 {
		return id, nil, true
	}
	b := []byte(id)
	for i := 0; i+1 < len(kv); i += 2 {
		name, _ := kv[i].(string)
		switch v := kv[i+1].(type) {
		case string:
			if name == "N" { // a count as text: plural forms read it
				b = append(append(append(append(b, 0), name...), '='), v...)
				continue
			}
			texts = append(texts, v)
			b = append(append(b, 0), name...)
		case int:
			b = strconv.AppendInt(append(append(append(b, 0), name...), '='), int64(v), 10)
		default:
			return "", nil, false
		}
	}
	return string(b), texts, true
}

// templateData is kv as go-i18n's template data; with marked, each text
// (but a count) is its mark, in order.
func templateData(kv []any, marked bool) map[string]any {
	data := make(map[string]any, len(kv)/2)
	n := 0
	for i := 0; i+1 < len(kv); i += 2 {
		name := fmt.Sprint(kv[i])
		data[name] = kv[i+1]
		if _, text := kv[i+1].(string); marked && text && name != "N" {
			data[name] = string(textMarkOpen) + strconv.Itoa(n) + string(textMarkClose)
			n++
		}
	}
	return data
}

// fill puts texts in the places of their marks in s (Fill).
func fill(s string, texts []string) string {
	if len(texts) == 0 {
		return s
	}
	return Fill(s, textMarks, len(texts), func(i int) string { return texts[i] })
}

var textMarks = [][2]string{{string(textMarkOpen), string(textMarkClose)}}

// Fill puts part(i) in the place of each mark of field i in s, a mark
// being an opening, i's digits and a closing in one of forms. It reads s
// once: a part that holds a mark is not read again, and what looks like
// a mark but names no field below n stays as it is.
func Fill(s string, forms [][2]string, n int, part func(i int) string) string {
	var b strings.Builder
	for {
		at, form := -1, forms[0]
		for _, f := range forms {
			if i := strings.Index(s, f[0]); i >= 0 && (at < 0 || i < at) {
				at, form = i, f
			}
		}
		if at < 0 {
			break
		}
		rest := s[at+len(form[0]):]
		end := strings.Index(rest, form[1])
		i, err := strconv.Atoi(rest[:max(end, 0)])
		if end < 0 || err != nil || i < 0 || i >= n {
			b.WriteString(s[:at+len(form[0])]) // not a mark of ours: kept as it is
			s = rest
			continue
		}
		b.WriteString(s[:at])
		b.WriteString(part(i))
		s = rest[end+len(form[1]):]
	}
	b.WriteString(s)
	return b.String()
}

// fallback is what a page shows for a message its language lacks (or
// that did not render): the English message, else the id.
func (l *Localizer) fallback(id string, err error, kv []any) string {
	if l.lacked == nil {
		l.lacked = err
	}
	if l.lang == "en" || !l.c.messages["en"][id] {
		return id
	}
	en := l.c.Localizer("en")
	s := en.T(id, kv...)
	if en.lacked != nil {
		return id
	}
	return s
}

// SentenceBreak is what stands between two sentences: a space, none in a
// language written without spaces ("…。处于边界").
func (l *Localizer) SentenceBreak() string {
	if l.unspaced {
		return ""
	}
	return " "
}

// Tidy drops, in a language written without spaces (Chinese, Japanese),
// a space between two Chinese or Japanese characters. A message keeps a
// space around a field so that Latin text stays apart ("在 {{.Workload}}
// 上" for ShareGPT); when the field is a Chinese or Japanese name, the
// space would split the sentence.
func (l *Localizer) Tidy(s string) string {
	if !l.unspaced || !strings.Contains(s, " ") {
		return s
	}
	return l.Figure(joinCJK(s))
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
