package study

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/workers"
	"github.com/perflab/perflab/internal/yamlfile"
)

// Content is a study's own prose in one language: the display names of its
// workloads and steps, and Markdown sections.
type Content struct {
	Lang      string
	Study     string
	Pos       Pos
	Workloads map[string]string
	Steps     map[string]string
	Sections  map[string]Section
	SHA256    string // of the file's bytes, hex, for the study's evidence
}

// Section is one Markdown section of a content file.
type Section struct {
	Markdown string
	Pos      Pos
	TextLine int // line of the Markdown's first line in the file
}

// Section ids a content file may have, besides step/<id>.
var contentSections = []string{"notes", "objective", "other-cases"}

var sectionMarker = regexp.MustCompile(`^<!--\s*section:\s*(\S+)\s*-->\s*$`)

// LoadContent reads content/<lang>/<study>.md for every language. fsys is
// the content/ tree, shown prefixed with root.
func LoadContent(fsys fs.FS, root string) (map[string]map[string]*Content, []Problem, error) {
	out := map[string]map[string]*Content{}
	var problems []Problem
	for _, lang := range Languages {
		out[lang] = map[string]*Content{}
		entries, err := fs.ReadDir(fsys, lang)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if r, file := safefs.Refused(err); r != nil {
			if file != path.Clean(root) || !slices.ContainsFunc(problems, func(p Problem) bool { return p.Pos.File == file }) {
				problems = append(problems, refusal(err)) // content/ itself once, not once per language
			}
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		// Files are read and parsed on every core, and kept in folder order.
		type parsed struct {
			c     *Content
			probs []Problem
			err   error
		}
		files := make([]parsed, len(entries))
		workers.Each(len(entries), func(i int) {
			e := entries[i]
			file := path.Join(root, lang, e.Name())
			if err := safefs.Check(file, e.Type()); err != nil {
				files[i].probs = []Problem{refusal(err)}
				return
			}
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				files[i].probs = []Problem{{Pos{file, 0}, "unexpected entry in content: expected <study-id>.md files"}}
				return
			}
			data, err := fs.ReadFile(fsys, path.Join(lang, e.Name()))
			if r, _ := safefs.Refused(err); r != nil {
				files[i].probs = []Problem{refusal(err)}
				return
			}
			if err != nil {
				files[i].err = err
				return
			}
			files[i].c, files[i].probs = ParseContent(file, lang, strings.TrimSuffix(e.Name(), ".md"), data)
		})
		for _, f := range files {
			if f.err != nil {
				return nil, nil, f.err
			}
			problems = append(problems, f.probs...)
			if f.c != nil {
				out[lang][f.c.Study] = f.c
			}
		}
	}
	return out, problems, nil
}

// maxDefinitions bounds the link reference definitions of a content file:
// goldmark takes time quadratic in the number of definitions in a row
// (70,000 took 3.6 s), and real prose has a handful.
const maxDefinitions = 1000

// refDefinition matches a line that starts a link reference definition.
var refDefinition = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:`)

// ParseContent reads one content file: YAML front matter between "---"
// lines, then sections introduced by "<!-- section: ID -->" lines.
func ParseContent(file, lang, studyID string, data []byte) (*Content, []Problem) {
	c := &Content{Lang: lang, Study: studyID, Pos: Pos{file, 1},
		Workloads: map[string]string{}, Steps: map[string]string{}, Sections: map[string]Section{}}
	c.SHA256 = FileSum(data)
	if len(data) > MaxFileSize {
		return c, []Problem{tooLarge(file, len(data))}
	}
	var problems []Problem
	bad := func(line int, msg string) { problems = append(problems, Problem{Pos{file, line}, msg}) }
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	body := 0
	if len(lines) > 0 && lines[0] == "---" {
		end := -1
		for i := 1; i < len(lines); i++ {
			if lines[i] == "---" {
				end = i
				break
			}
		}
		if end < 0 {
			bad(1, "front matter opened with --- is never closed: add a line --- after it")
			return c, problems
		}
		l := &loader{}
		front := []byte(strings.Join(lines[1:end], "\n"))
		top, errs := yamlfile.Parse(front)
		for _, e := range errs {
			bad(e.Line+1, "front matter: "+strings.Replace(e.Msg, "invalid YAML", "invalid YAML front matter", 1))
		}
		if top != nil {
			shift(top, 1)
			m := l.mapping(file, top, "front matter", "workloads", "steps")
			c.Workloads = stringMap(l, file, m.fields["workloads"])
			c.Steps = stringMap(l, file, m.fields["steps"])
			problems = append(problems, l.problems...)
		}
		body = end + 1
	}
	current, start := "", 0
	var buf []string
	definitions := 0
	var limits proseLimits
	flush := func() {
		if current != "" {
			text := start + 1 // the line after the marker, past leading blank lines
			for j := 0; j < len(buf) && strings.TrimSpace(buf[j]) == ""; j++ {
				text++
			}
			c.Sections[current] = Section{Markdown: strings.TrimSpace(strings.Join(buf, "\n")), Pos: Pos{file, start}, TextLine: text}
		}
		buf = nil
	}
	for i := body; i < len(lines); i++ {
		var m []string
		if strings.HasPrefix(lines[i], "<!--") { // what sectionMarker starts with: no regexp on prose lines
			m = sectionMarker.FindStringSubmatch(lines[i])
		}
		if m != nil {
			flush()
			current, start = m[1], i+1
			limits.columns = 0
			if !contains(contentSections, current) && !strings.HasPrefix(current, "step/") {
				bad(i+1, "unknown section "+current+"; known sections are "+strings.Join(contentSections, ", ")+" and step/<step-id>")
			}
			if _, dup := c.Sections[current]; dup {
				bad(i+1, "section "+current+" is given twice")
			}
			continue
		}
		if current == "" {
			if strings.TrimSpace(lines[i]) != "" {
				bad(i+1, "text before the first <!-- section: ID --> marker: start the prose with a section marker")
				current, start = "-", i+1
			}
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(lines[i], " "), "[") && refDefinition.MatchString(lines[i]) {
			if definitions++; definitions == maxDefinitions+1 {
				bad(i+1, fmt.Sprintf("more than %d link reference definitions: the ones from here on are shown as text; use fewer links", maxDefinitions))
			}
			if definitions > maxDefinitions {
				lines[i] = `\` + strings.TrimLeft(lines[i], " ")
			}
		}
		if text, msg := limits.line(lines[i]); msg != "" || text != lines[i] {
			if msg != "" {
				bad(i+1, msg)
			}
			lines[i] = text
		}
		buf = append(buf, lines[i])
	}
	flush()
	delete(c.Sections, "-")
	return c, problems
}

// shift moves every line number of a YAML tree by n lines.
func shift(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shift(c, by)
	}
}

func stringMap(l *loader, file string, n *yaml.Node) map[string]string {
	out := map[string]string{}
	if n == nil {
		return out
	}
	if n.Kind != yaml.MappingNode {
		l.problem(Pos{file, n.Line}, "expected a mapping of id: text")
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = n.Content[i+1].Value
	}
	return out
}

// Keys lists a content file's keys ("section:notes", "step:engine", ...) in
// a fixed order, for comparing languages.
func (c *Content) Keys() []string {
	var keys []string
	for k := range c.Sections {
		keys = append(keys, "section:"+k)
	}
	for k := range c.Workloads {
		keys = append(keys, "workload:"+k)
	}
	for k := range c.Steps {
		keys = append(keys, "step:"+k)
	}
	sort.Strings(keys)
	return keys
}
