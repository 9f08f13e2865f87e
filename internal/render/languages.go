package render

import "github.com/perflab/perflab/internal/study"

// Language is one language perflab publishes in.
type Language = study.Language

// Languages are study.LanguageTable, in the order of the language switcher.
var Languages = study.LanguageTable
