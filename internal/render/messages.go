package render

import (
	"fmt"
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
			if form != "" && compilePlain(&i18n.Message{Other: form}) == nil {
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

// groupLine is the line of the last top-level key of a YAML file that
// shares id's prefix up to its last dot, where a message id belongs; 1
// when none does.
func groupLine(data []byte, id string) int {
	prefix := id[:strings.LastIndexByte(id, '.')+1]
	var doc yaml.Node
	if prefix == "" || yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 1
	}
	line, m := 1, doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.HasPrefix(m.Content[i].Value, prefix) {
			line = m.Content[i].Line
		}
	}
	return line
}

func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
