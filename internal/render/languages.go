package render

import "github.com/perflab/perflab/internal/study"

// Languages are study.LanguageTable, in the order of the language switcher.
var Languages = study.LanguageTable
