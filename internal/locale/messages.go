package locale

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"gopkg.in/yaml.v3"
)

// checkMessages refuses a locale message that could run away: every form
// of every message must be text with {{.Field}} insertions only, in the
// default delimiters. A {{range}}, a {{template}} or a printf with a huge
// width would otherwise run inside go-i18n, where no page budget reaches
// (it writes into its own buffer), and the page's error would name the
// template, not the message. file is the locale file as shown.
func checkMessages(file string, data []byte, messages []*i18n.Message) error {
	for _, m := range messages {
		if m.LeftDelim != "" || m.RightDelim != "" {
			return unsafeMessage(file, data, m.ID, "sets its own delimiters")
		}
		for _, form := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
			if _, ok := fieldsOf(form); form != "" && !ok {
				return unsafeMessage(file, data, m.ID, fmt.Sprintf("has a template action other than {{.Field}} in %q", truncateText(form, 60)))
			}
		}
	}
	return nil
}

func unsafeMessage(file string, data []byte, id, what string) error {
	return fmt.Errorf("%s:%d: message %q %s: a locale message holds text and {{.Field}} insertions only", file, keyLine(data, id), id, what)
}

// keyLine is the line of a top-level key of a YAML file, or 1.
func keyLine(data []byte, key string) int {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 1
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i].Line
		}
	}
	return 1
}

// keyLines indexes the top-level keys of a YAML file by line, read once
// however many messages a check asks about.
type keyLines struct {
	key   map[string]int // key -> its line
	group map[string]int // prefix up to a key's last dot -> the line of its last key
}

func indexKeys(data []byte) keyLines {
	k := keyLines{key: map[string]int{}, group: map[string]int{}}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return k
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, line := m.Content[i].Value, m.Content[i].Line
		if _, ok := k.key[key]; !ok {
			k.key[key] = line
		}
		if dot := strings.LastIndexByte(key, '.'); dot > 0 {
			k.group[key[:dot+1]] = line
		}
	}
	return k
}

// line is the line of key, or 1.
func (k keyLines) line(key string) int { return max(k.key[key], 1) }

// groupLine is the line of the last key that shares id's prefix up to its
// last dot, where a message id belongs; 1 when none does.
func (k keyLines) groupLine(id string) int {
	return max(k.group[id[:strings.LastIndexByte(id, '.')+1]], 1)
}

func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// messageFields are the {{.Field}} names a message inserts in any of its
// forms, sorted, once each.
func messageFields(m *i18n.Message) []string {
	var out []string
	for _, form := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		fields, _ := fieldsOf(form)
		out = append(out, fields...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
