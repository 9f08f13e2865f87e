// Package cjk classifies Chinese and Japanese characters for the
// typography of reports: render joins lines between them, check flags
// spacing and punctuation around them. Each class is given twice, as a
// function and as a regular expression character class, and both agree
// on every rune.
package cjk

import "unicode"

// letters is the body of Letter: Han, hiragana, katakana and the prolonged
// sound mark ー, whose script is Common rather than Katakana.
const letters = `\p{Han}\p{Hiragana}\p{Katakana}ー`

// Character classes for regexp, one per function below.
const (
	// Letter is a Chinese or Japanese letter (IsLetter).
	Letter = `[` + letters + `]`
	// Writing is a letter or the ideographic comma and full stop 、。
	// (IsWriting).
	Writing = `[` + letters + `。、]`
	// Wide is a letter, a CJK symbol or punctuation mark other than the
	// ideographic space (U+3001 to U+303F), or a full-width form (U+FF01 to
	// U+FFEF) (IsWide).
	Wide = `[` + letters + `\x{3001}-\x{303F}\x{FF01}-\x{FFEF}]`
	// WideNotStop is Wide without the ideographic full stop 。 (U+3002).
	WideNotStop = `[` + letters + `\x{3001}\x{3003}-\x{303F}\x{FF01}-\x{FFEF}]`
	// Any is a letter or anything in the CJK symbols and punctuation block
	// (U+3000 to U+303F, the ideographic space included) or the half-width
	// and full-width forms block (U+FF00 to U+FFEF) (IsAny).
	Any = `[` + letters + `\x{3000}-\x{303F}\x{FF00}-\x{FFEF}]`
)

// IsLetter reports whether r is in the class Letter.
func IsLetter(r rune) bool {
	// No Han, Hiragana or Katakana rune comes before U+2E80: Latin text,
	// most of what is tested, is answered without the tables.
	return r >= 0x2E80 && (r == 'ー' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana))
}

// IsWriting reports whether r is in the class Writing.
func IsWriting(r rune) bool {
	return r == '。' || r == '、' || IsLetter(r)
}

// IsWide reports whether r is in the class Wide.
func IsWide(r rune) bool {
	return (r >= 0x3001 && r <= 0x303F) || (r >= 0xFF01 && r <= 0xFFEF) || IsLetter(r)
}

// IsAny reports whether r is in the class Any.
func IsAny(r rune) bool {
	return (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF) || IsLetter(r)
}
