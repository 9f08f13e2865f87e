package importer

import (
	"cmp"
	"fmt"
	"path"
	"strings"
)

// Import reads one report. file names it in errors and in the sources of
// claims and runs (its base name only).
func Import(file string, src []byte) (*Study, error) {
	name := path.Base(strings.ReplaceAll(file, "\\", "/"))
	items, unclosed := scan(string(src))
	if unclosed > 0 {
		return nil, &Error{name, unclosed, "this code fence is never closed: close it with ``` so the importer knows where the block ends"}
	}
	if notAStudy(items) {
		return nil, &NotAStudy{File: name}
	}
	s := &Study{ID: StudyID(file), Source: name, Nodes: 1}
	p := &parser{s: s, file: name, items: items}
	switch {
	case !familyLayout(items) && hasResults(items):
		if err := p.importEvidence(); err != nil {
			return nil, err
		}
		p.derivedClaims()
	case isArticle(items):
		p.importArticle()
		p.derivedClaims()
	default:
		if err := p.parse(); err != nil {
			return nil, err
		}
	}
	s.Unread = unreadFigures(items, s.Claims)
	return s, nil
}

// familyLayout reports whether a page has the report family's sections: a
// setup with a "### Model" and the experiment results. Any other page with
// result blocks ("## Setup" of a recipe included) is read by its evidence.
func familyLayout(items []line) bool {
	h2 := sections(items, 2)
	setup := find(h2, "experimental setup", "setup")
	return setup != nil && find(sections(setup.items, 3), "model") != nil && find(h2, "experiment results", "results") != nil
}

type parser struct {
	s     *Study
	file  string
	items []line

	datasets        []dataset // "Very long prompt: 32000 input tokens, 100 output tokens"
	defaultData     string    // dataset of workloads a label does not place
	gpusKnown       bool
	recommended     string // the recommended serving command of the conclusion
	recommendedLine int    // the line of its first word
	modelLine       int    // the line of the setup's model
	table           *table // the conclusion's comparison table
	summary         *table // the summary of options
	unlabelled      bool   // some step block had no workload label
	stepIDs         ids
}

type dataset struct {
	name    string
	in, out int
}

func (p *parser) fail(line int, format string, args ...any) error {
	return &Error{p.file, line, fmt.Sprintf(format, args...)}
}

func (p *parser) parse() error {
	s := p.s
	h2 := sections(p.items, 2)
	title := ""
	for _, it := range p.items {
		if lvl, t := heading(it.text); it.fence == nil && lvl == 1 {
			title = t
			break
		}
	}
	s.SourceTitle = cmp.Or(title, s.Source)
	s.Objective = "throughput"
	if obj := find(h2, "objective"); strings.Contains(strings.ToLower(title), "latency") ||
		(obj != nil && strings.Contains(strings.ToLower(text(obj.items)), "latency") && !strings.Contains(strings.ToLower(text(obj.items)), "throughput")) {
		s.Objective = "latency"
	}
	setup := find(h2, "experimental setup", "setup")
	if setup == nil {
		return p.fail(1, "no \"## Experimental Setup\" section: the importer reads the model, hardware and engines from it")
	}
	if err := p.setup(setup); err != nil {
		return err
	}
	if c := find(h2, "conclusion"); c != nil {
		for _, it := range c.items {
			if it.fence != nil && p.recommended == "" {
				p.recommended, p.recommendedLine = it.fence.Text(), it.fence.first
			}
		}
		p.accuracyClaims(c.items)
		for _, t := range tables(c.items) {
			t := t
			if colIndex(t.header, "optimized") >= 0 && colIndex(t.header, "baseline") >= 0 {
				p.table = &t
				break
			}
		}
	}
	res := find(h2, "experiment results", "results")
	if res == nil {
		return p.fail(1, "no \"## Experiment Results\" section: the importer reads the runs from it")
	}
	for _, sec := range sections(res.items, 3) {
		t := norm(sec.title)
		switch {
		case strings.Contains(t, "summary of optimization"):
			for _, tb := range tables(sec.items) {
				tb := tb
				p.summary = &tb
				break
			}
		case strings.Contains(t, "other benchmark cases"):
			if err := p.otherCases(sec); err != nil {
				return err
			}
		default:
			if err := p.step(sec); err != nil {
				return err
			}
		}
	}
	if len(s.Steps) == 0 {
		return p.fail(res.line, "no optimisation step found under this heading: expected \"### <step>\" sections with serving scripts and benchmark results")
	}
	p.finishWorkloads()
	p.reconcileModel(title)
	p.citeRepeats()
	p.hardwareFromRuns()
	p.references()
	p.configs()
	p.conclusionClaims()
	p.summaryClaims()
	p.engines()
	sortClaims(s.Claims)
	return nil
}

func text(items []line) string {
	var b strings.Builder
	for _, it := range items {
		if it.fence == nil {
			b.WriteString(it.text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func colIndex(header []string, word string) int {
	for i, h := range header {
		if strings.Contains(norm(h), word) {
			return i
		}
	}
	return -1
}
