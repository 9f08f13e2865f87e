package render

import (
	"fmt"

	"golang.org/x/text/language"

	"github.com/perflab/perflab/internal/study"
)

// Language is one language perflab publishes in.
type Language struct {
	Code string // en, zh, ja
	Name string // its own name: English, 中文, 日本語
	Tag  language.Tag
}

// languageNames gives each code of study.Languages its own name and tag.
var languageNames = map[string]Language{
	"en": {"en", "English", language.English},
	"zh": {"zh", "中文", language.SimplifiedChinese},
	"ja": {"ja", "日本語", language.Japanese},
}

// Languages are study.Languages, in the order of the language switcher.
var Languages = languagesOf(study.Languages)

// languagesOf looks up each code's name and tag; a code without them is a
// programming error, caught when the package loads.
func languagesOf(codes []string) []Language {
	out := make([]Language, len(codes))
	for i, code := range codes {
		l, ok := languageNames[code]
		if !ok {
			panic(fmt.Sprintf("render: language %q has no name: add it to languageNames", code))
		}
		out[i] = l
	}
	return out
}
