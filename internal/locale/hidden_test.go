package locale

import (
	"strings"
	"testing"
)

// TestLocaleEscapesShown: a hidden character that a locale's
// double-quoted value writes with an escape reaches no page as itself.
func TestLocaleEscapesShown(t *testing.T) {
	var raw any
	if err := unmarshalLocale([]byte("site.title: \"A \\u202Eb\"\nlist:\n  - \"\\u200b\"\n"), &raw); err != nil {
		t.Fatal(err)
	}
	m := raw.(map[string]any)
	if got := m["site.title"]; got != "A \ufffdb" {
		t.Errorf("site.title = %q", got)
	}
	if got := m["list"].([]any)[0]; got != "\ufffd" {
		t.Errorf("list item = %q", got)
	}
	if err := unmarshalLocale([]byte("a: yes\n"), &raw); err == nil || !strings.Contains(err.Error(), "boolean") {
		t.Errorf("a locale is not decoded as every YAML file: %v", err)
	}
}
