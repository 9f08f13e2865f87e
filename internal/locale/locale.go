// Package locale is perflab's message catalogue: it loads locales/<lang>.yaml
// of each language into one go-i18n bundle, refusing a message that is
// more than text and {{.Field}} insertions, and localizes message ids
// through go-i18n's Localize, with the typography of each language (no
// spaces between Chinese or Japanese words, figures kept whole). It also
// says what a language's file lacks or inserts wrongly, for perflab check.
//
// It knows no page, template or Markdown: internal/render uses it, and
// says which messages the pages require.
package locale

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/yamlfile"
)

// Catalogue holds the messages of every language, in one go-i18n bundle.
type Catalogue struct {
	langs    []study.Language
	unspaced map[string]bool // lang -> written without spaces between words
	bundle   *i18n.Bundle
	messages map[string]map[string]bool     // lang -> message ids
	sources  map[string][]byte              // lang -> its locale file, for the lines of missing messages
	fields   map[string]map[string][]string // lang -> message id -> the fields it inserts
	// filled holds, per language, go-i18n's text of each message asked
	// for, its text fields marked (Localizer.T): a page asks thousands.
	filled map[string]*sync.Map
	// counted holds, per language, the messages with plural forms.
	counted map[string]map[string]bool
}

// Load reads locales/<code>.yaml of each language (locales is that folder).
func Load(locales fs.FS, langs []study.Language) (*Catalogue, error) {
	c := &Catalogue{
		langs:    langs,
		unspaced: map[string]bool{},
		bundle:   i18n.NewBundle(language.English),
		messages: map[string]map[string]bool{},
		sources:  map[string][]byte{},
		fields:   map[string]map[string][]string{},
		filled:   map[string]*sync.Map{},
		counted:  map[string]map[string]bool{},
	}
	c.bundle.RegisterUnmarshalFunc("yaml", unmarshalLocale)
	for _, l := range langs {
		name := l.Code + ".yaml"
		data, err := fs.ReadFile(locales, name)
		if err != nil {
			return nil, &readError{name: name, err: err}
		}
		if err := c.add(l, name, data); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// add parses one language's file, data, named name in locales/.
func (c *Catalogue) add(l study.Language, name string, data []byte) error {
	// Refused here with its line; go-i18n then decodes it the same way.
	if _, errs := yamlfile.Parse(data); errs != nil {
		return fmt.Errorf("locales/%s:%d: %s", name, errs[0].Line, errs[0].Msg)
	}
	// check refuses bidirectional controls and invisible characters
	// in a message, written or referenced (unmarshalLocale shows
	// those a YAML escape writes); a build shows them.
	data = []byte(plain.ShowHiddenText(string(data)))
	mf, err := c.bundle.ParseMessageFileBytes(data, path.Join("locales", name))
	if err != nil {
		return fmt.Errorf("locales/%s: %w", name, err)
	}
	if err := checkMessages(path.Join("locales", name), data, mf.Messages); err != nil {
		return err
	}
	ids := map[string]bool{}
	c.fields[l.Code] = map[string][]string{}
	c.counted[l.Code] = map[string]bool{}
	for _, m := range mf.Messages {
		ids[m.ID] = true
		c.fields[l.Code][m.ID] = messageFields(m)
		c.counted[l.Code][m.ID] = m.Zero != "" || m.One != "" || m.Two != "" || m.Few != "" || m.Many != ""
	}
	c.unspaced[l.Code] = l.Unspaced
	c.messages[l.Code] = ids
	c.sources[l.Code] = data
	c.filled[l.Code] = new(sync.Map)
	return nil
}

// IDs is the set of message ids a language has, a copy of the
// catalogue's.
func (c *Catalogue) IDs(lang string) map[string]bool { return maps.Clone(c.messages[lang]) }

// readError names a locale file that could not be read, with what the
// file system said about it: the file system's own name for it, a path
// inside the folder or on the disk, is left out of the message, and kept
// in the error the message wraps.
type readError struct {
	name string
	err  error
}

func (e *readError) Error() string {
	msg := e.err
	var pe *fs.PathError
	if errors.As(e.err, &pe) {
		msg = pe.Err
	}
	return "locales/" + e.name + ": " + msg.Error()
}

func (e *readError) Unwrap() error { return e.err }

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
