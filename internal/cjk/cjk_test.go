package cjk

import (
	"regexp"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The classifiers render and check had before this package, kept to show
// that the shared one changes nothing.
func oldRenderIsCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) ||
		r == 'ー' || (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}

func oldCheckIsCJKChar(r rune) bool {
	return r == 'ー' || r == '。' || r == '、' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func oldCheckIsWideChar(r rune) bool {
	return r == 'ー' || (r >= 0x3001 && r <= 0x303F) || (r >= 0xFF01 && r <= 0xFFEF) || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

var (
	oldCJK       = regexp.MustCompile(`^[\p{Han}\p{Hiragana}\p{Katakana}ー。、]$`)
	oldWideLeft  = regexp.MustCompile(`^[\p{Han}\p{Hiragana}\p{Katakana}ー\x{3001}\x{3003}-\x{303F}\x{FF01}-\x{FFEF}]$`)
	oldWideRight = regexp.MustCompile(`^[\p{Han}\p{Hiragana}\p{Katakana}ー\x{3001}-\x{303F}\x{FF01}-\x{FFEF}]$`)
	oldHasCJK    = regexp.MustCompile(`^[\p{Han}\p{Hiragana}\p{Katakana}\x{3000}-\x{303F}\x{FF00}-\x{FFEF}]$`)
)

func whole(class string) *regexp.Regexp { return regexp.MustCompile(`^` + class + `$`) }

// TestEveryRune compares, for every rune, each class with its function and
// with the classifier or regular expression it replaced.
func TestEveryRune(t *testing.T) {
	letter, writing, wide, wideNotStop, anyCJK := whole(Letter), whole(Writing), whole(Wide), whole(WideNotStop), whole(Any)
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		checks := []struct {
			name      string
			got, want bool
		}{
			{"Letter", letter.MatchString(s), IsLetter(r)},
			{"Writing", writing.MatchString(s), IsWriting(r)},
			{"Wide", wide.MatchString(s), IsWide(r)},
			{"WideNotStop", wideNotStop.MatchString(s), IsWide(r) && r != '。'},
			{"Any", anyCJK.MatchString(s), IsAny(r)},
			{"IsAny/render isCJK", IsAny(r), oldRenderIsCJK(r)},
			{"IsWriting/check isCJKChar", IsWriting(r), oldCheckIsCJKChar(r)},
			{"IsWide/check isWideChar", IsWide(r), oldCheckIsWideChar(r)},
			{"Writing/check cjk", writing.MatchString(s), oldCJK.MatchString(s)},
			{"WideNotStop/check spaceBetweenCJK left", wideNotStop.MatchString(s), oldWideLeft.MatchString(s)},
			{"Wide/check spaceBetweenCJK right", wide.MatchString(s), oldWideRight.MatchString(s)},
			{"Any/check hasCJK", anyCJK.MatchString(s), oldHasCJK.MatchString(s) || r == 'ー'},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Fatalf("%s disagrees on %U: %v, want %v", c.name, r, c.got, c.want)
			}
		}
	}
}

func TestExamples(t *testing.T) {
	cases := []struct {
		r                            rune
		letter, writing, wide, isAny bool
	}{
		{'a', false, false, false, false},
		{'汉', true, true, true, true},
		{'か', true, true, true, true},
		{'カ', true, true, true, true},
		{'ー', true, true, true, true},
		{'。', false, true, true, true},
		{'「', false, false, true, true},
		{'（', false, false, true, true},
		{'\u3000', false, false, false, true},
		{'한', false, false, false, false},
	}
	for _, c := range cases {
		got := [4]bool{IsLetter(c.r), IsWriting(c.r), IsWide(c.r), IsAny(c.r)}
		want := [4]bool{c.letter, c.writing, c.wide, c.isAny}
		if got != want {
			t.Errorf("%q: letter, writing, wide, any = %v, want %v", c.r, got, want)
		}
	}
}
