package check

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
)

// RuleLinkSpoof: a link of the prose shows an address as its text and
// opens another one. A reader trusts the address they see; the text
// `https://docs.vllm.ai` over a link to another host sends them there
// unawares.
const RuleLinkSpoof = "link-spoof"

// ProseLink is a link of a prose file as its page publishes it: the text
// a reader sees (escapes and entities resolved), the address it opens,
// and the line of its "[".
type ProseLink struct {
	Text, Target string
	Line         int
}

// SpoofedLinks reports each link of file whose text reads as an address
// (a URL, or a domain name such as docs.vllm.ai) and whose target is an
// address that is not that one: another host, or, when the text names a
// path, scheme, port, query or fragment, another of those. A text that
// is not an address, or a target that names no host (a link inside the
// site), passes.
func SpoofedLinks(file string, links []ProseLink) []Diagnostic {
	var out []Diagnostic
	for _, l := range links {
		shown, ok := addressIn(l.Text)
		if !ok {
			continue
		}
		target, err := url.Parse(strings.TrimSpace(l.Target))
		if err != nil || target.Host == "" || sameAddress(shown, target) {
			continue
		}
		out = append(out, Diagnostic{Rule: RuleLinkSpoof, Severity: Error, File: file, Line: l.Line,
			Printed: l.Text, Computed: l.Target,
			Message: fmt.Sprintf("the link's text shows the address %q but the link opens %q: a reader trusts the address they see; make the text the address the link opens, or words that are not an address ([the vLLM docs](...))", l.Text, l.Target)})
	}
	return out
}

// shownAddress is what a link's text says: a URL, whose parts beyond
// the host count only when written.
type shownAddress struct {
	u                  *url.URL
	scheme, port, rest bool // written in the text: a scheme, a port, a path, query or fragment
}

// addressIn reads a link text as an address: a URL with a scheme
// ("https://x", "//x"), or a domain name with an optional port and path
// ("docs.vllm.ai", "www.example.com/page"). Invisible format characters
// are dropped first: they do not change what a reader sees.
func addressIn(text string) (shownAddress, bool) {
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, text))
	if text == "" || strings.ContainsFunc(text, unicode.IsSpace) {
		return shownAddress{}, false
	}
	var a shownAddress
	raw := text
	if i := strings.Index(text, "://"); i > 0 && isScheme(text[:i]) {
		a.scheme = true
	} else if strings.HasPrefix(text, "//") {
		raw = "https:" + text
	} else {
		raw = "https://" + text
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return shownAddress{}, false
	}
	if !a.scheme && !strings.HasPrefix(text, "//") && !looksLikeDomain(u.Hostname()) {
		return shownAddress{}, false
	}
	a.u, a.port = u, u.Port() != ""
	a.rest = strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != ""
	return a, true
}

func isScheme(s string) bool {
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return s != ""
}

// fileExtensions end names that read as domains but that prose uses for
// files (a link [study.yaml](https://github.com/...) names the file it
// opens).
var fileExtensions = map[string]bool{"yaml": true, "yml": true, "json": true, "jsonl": true, "md": true, "log": true,
	"csv": true, "tsv": true, "txt": true, "sh": true, "py": true, "toml": true, "tmpl": true, "html": true, "htm": true,
	"svg": true, "png": true, "jpg": true, "gob": true, "go": true, "pdf": true, "zip": true, "gz": true, "tar": true, "xml": true}

// looksLikeDomain: two labels or more of letters, digits and '-', the
// last of letters only (a top-level domain, ASCII or not), not a file's
// extension. Letters of any script count: a look-alike of a Latin name
// is still read as that name.
func looksLikeDomain(host string) bool {
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") ||
			strings.ContainsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }) {
			return false
		}
	}
	tld := labels[len(labels)-1]
	if strings.HasPrefix(strings.ToLower(tld), "xn--") {
		return true
	}
	return len([]rune(tld)) >= 2 && !strings.ContainsFunc(tld, func(r rune) bool { return !unicode.IsLetter(r) }) &&
		!fileExtensions[strings.ToLower(tld)]
}

// sameAddress: the target is on the host the text shows ("www." or not),
// and has each other part the text writes.
func sameAddress(shown shownAddress, target *url.URL) bool {
	host := func(u *url.URL) string {
		return strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), "www.")
	}
	s := shown.u
	switch {
	case host(s) != host(target):
		return false
	case shown.scheme && !strings.EqualFold(s.Scheme, target.Scheme):
		return false
	case shown.port && s.Port() != target.Port():
		return false
	case shown.rest:
		return strings.TrimSuffix(s.Path, "/") == strings.TrimSuffix(target.Path, "/") &&
			s.RawQuery == target.RawQuery && s.Fragment == target.Fragment
	}
	return true
}
