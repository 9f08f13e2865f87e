package study

// Language is one language perflab publishes in. Everything that differs
// by language derives from LanguageTable: the pages, the prose folders,
// the locale files, the typography rules.
type Language struct {
	Code     string // en, zh, ja: the name of its prose folder and locale file
	Name     string // its own name, in the language switcher: English, 中文, 日本語
	English  string // its name in messages: English, Chinese, Japanese
	Unspaced bool   // written without spaces between words: its typography is checked
}

// LanguageTable lists the languages in the order of the language switcher;
// the first is the one the prose of the others is checked against.
var LanguageTable = []Language{
	{Code: "en", Name: "English", English: "English"},
	{Code: "zh", Name: "中文", English: "Chinese", Unspaced: true},
	{Code: "ja", Name: "日本語", English: "Japanese", Unspaced: true},
}

// Languages are the codes of LanguageTable.
var Languages = func() []string {
	codes := make([]string, len(LanguageTable))
	for i, l := range LanguageTable {
		codes[i] = l.Code
	}
	return codes
}()

// LanguageOf returns the language of a code; ok is false for a code
// perflab does not publish in.
func LanguageOf(code string) (l Language, ok bool) {
	for _, l := range LanguageTable {
		if l.Code == code {
			return l, true
		}
	}
	return Language{}, false
}
