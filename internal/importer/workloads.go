package importer

// Naming workloads: from dataset lists, block labels and table rows.

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
)

func (p *parser) sharegpt() *Workload {
	if w := p.s.workload("sharegpt"); w != nil {
		return w
	}
	w := &Workload{ID: "sharegpt", Dataset: "sharegpt", aliases: []string{"sharegpt"}}
	p.s.Workloads = append(p.s.Workloads, w)
	return w
}

// tokenCount reads a token count as reports write it: 4000, 2K, 32k, 1.5K.
func tokenCount(s string) int {
	s = strings.ToLower(strings.ReplaceAll(s, " ", ""))
	scale := 1.0
	if strings.HasSuffix(s, "k") {
		s, scale = strings.TrimSuffix(s, "k"), 1000
	}
	v, _ := strconv.ParseFloat(s, 64)
	return int(math.Round(v * scale))
}

func sizeID(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%dk", n/1024)
	}
	return strconv.Itoa(n)
}

// random returns the random workload with the given lengths (output 0:
// any), creating it.
func (p *parser) random(in, out int, alias string) *Workload {
	for _, w := range p.s.Workloads {
		if w.Dataset == "random" && w.InputLen == in && (out == 0 || w.OutputLen == out) {
			if alias != "" {
				w.aliases = append(w.aliases, alias)
			}
			return w
		}
	}
	if out == 0 {
		for _, d := range p.datasets {
			if d.in == in {
				out = d.out
			}
		}
	}
	id := "random-" + sizeID(in)
	for i := 2; p.s.workload(id) != nil; i++ {
		id = fmt.Sprintf("random-%s-%d", sizeID(in), i)
	}
	w := &Workload{ID: id, Dataset: "random", InputLen: in, OutputLen: out}
	if alias != "" {
		w.aliases = append(w.aliases, alias)
	}
	for _, d := range p.datasets {
		if d.in == in && (out == 0 || d.out == out) {
			w.aliases = append(w.aliases, d.name)
		}
	}
	p.s.Workloads = append(p.s.Workloads, w)
	return w
}

var (
	batchRE = regexp.MustCompile(`(?:\bbs|batch size|concurrency|max concurrency)\s*=?\s*(\d+)`)
	sizeRE  = regexp.MustCompile(`(\d+(?:\.\d+)?)\s*(k|m)?\b`)
)

// labelWorkload finds the workload a label or a table row names, creating
// it when the name says enough; nil when it says nothing the importer knows.
func (p *parser) labelWorkload(label string, create bool) *Workload {
	t := norm(label)
	t2 := strings.TrimSpace(strings.TrimSuffix(t, " profile"))
	for _, w := range p.s.Workloads {
		for _, a := range w.aliases {
			if a == t || a == t2 {
				return w
			}
		}
	}
	for _, d := range p.datasets {
		if d.name == t || d.name == t2 || d.name+" prompt" == t {
			return p.random(d.in, d.out, t)
		}
	}
	if m := batchRE.FindStringSubmatch(strings.ReplaceAll(t, "bs ", "bs=")); m != nil {
		n, _ := strconv.Atoi(m[1])
		// "ShareGPT BS=4" is the case the benchmark ran at concurrency 4.
		for _, w := range p.s.Workloads {
			if w.MaxConcurrency != nil && *w.MaxConcurrency == n && (!strings.Contains(t, "sharegpt") || w.Dataset == "sharegpt") {
				w.aliases = append(w.aliases, t)
				return w
			}
		}
	}
	if m := batchRE.FindStringSubmatch(strings.ReplaceAll(t, "bs ", "bs=")); m != nil && create {
		n, _ := strconv.Atoi(m[1])
		id := fmt.Sprintf("bs-%d", n)
		ds := p.defaultData
		if strings.Contains(t, "sharegpt") {
			id, ds = fmt.Sprintf("sharegpt-bs%d", n), "sharegpt"
		}
		if w := p.s.workload(id); w != nil {
			w.aliases = append(w.aliases, t)
			return w
		}
		if ds == "" {
			ds = unknownDataset // the report names no dataset: never a default
		}
		w := &Workload{ID: id, Dataset: ds, MaxConcurrency: &n, aliases: []string{t}}
		if ds == "random" && len(p.datasets) > 0 {
			w.InputLen, w.OutputLen = p.datasets[0].in, p.datasets[0].out
		}
		p.s.Workloads = append(p.s.Workloads, w)
		return w
	}
	// "Short Context (1K in / 128 out)" is the profile "Short Context".
	for _, w := range p.s.Workloads {
		for _, a := range w.aliases {
			if a != "sharegpt" && strings.HasPrefix(t2, a+" ") {
				return w
			}
		}
	}
	if strings.Contains(t, "sharegpt") {
		w := p.sharegpt()
		w.aliases = append(w.aliases, t)
		return w
	}
	if strings.Contains(t, "random") || strings.Contains(t, "input") || strings.Contains(t, "prompt") {
		if m := sizeRE.FindStringSubmatch(t); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			in := int(v)
			if m[2] == "k" {
				in = int(v * 1000)
			}
			// The label rounds: "32K" is the 32000-token case of the dataset list.
			for _, d := range p.datasets {
				if math.Abs(float64(d.in-in)) <= 0.05*float64(in) || (m[2] == "k" && math.Abs(float64(d.in)-v*1024) <= 0.05*v*1024) {
					return p.random(d.in, d.out, t)
				}
			}
			if create {
				return p.random(in, 0, t)
			}
		}
	}
	if !create {
		return nil
	}
	id := slug(label)
	if id == "" {
		return nil
	}
	if w := p.s.workload(id); w != nil {
		return w
	}
	w := &Workload{ID: id, Dataset: p.defaultData, aliases: []string{t}}
	if w.Dataset == "" {
		w.Dataset = unknownDataset // the report names no dataset: never a default
	}
	p.s.Workloads = append(p.s.Workloads, w)
	return w
}

// finishWorkloads completes random workloads from their logs when the
// report lists no lengths, picks the main workload and orders workloads as
// the conclusion table lists them.
func (p *parser) finishWorkloads() {
	s := p.s
	used := map[string]int{}
	for _, r := range s.Runs {
		if r.step == nil {
			continue
		}
		for _, lg := range r.Logs {
			used[lg.Workload]++
		}
	}
	var main *Workload
	if p.unlabelled || len(used) == 0 {
		main = p.defaultWorkload()
	} else {
		for _, w := range s.Workloads {
			if used[w.ID] > 0 && (main == nil || used[w.ID] > used[main.ID]) {
				main = w
			}
		}
	}
	if main != nil {
		main.Main = true
	}
	for _, w := range s.Workloads {
		if w.Dataset == "random" && (w.InputLen == 0 || w.OutputLen == 0) {
			for _, r := range s.Runs {
				for _, lg := range r.Logs {
					if lg.Workload != w.ID {
						continue
					}
					b := parseBlock(lg.Text)
					n, ok1 := b.Value("completed")
					in, ok2 := b.Value("total_input_tokens")
					out, ok3 := b.Value("total_output_tokens")
					if ok1 && n > 0 {
						if w.InputLen == 0 && ok2 {
							w.InputLen = int(math.Round(in / n))
						}
						if w.OutputLen == 0 && ok3 {
							w.OutputLen = int(math.Round(out / n))
						}
					}
				}
			}
			if w.InputLen == 0 {
				w.InputLen = 1
			}
			if w.OutputLen == 0 {
				w.OutputLen = 1
			}
		}
	}
	// Table order first, then the order workloads appeared in.
	if p.table != nil {
		for i, row := range p.table.rows {
			if len(row) > 0 {
				if w := p.labelWorkload(row[0], false); w != nil && w.tabled == 0 {
					w.tabled = i + 1
				}
			}
		}
	}
	ws := s.Workloads
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && less(ws[j], ws[j-1]); j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
}

func less(a, b *Workload) bool {
	ka, kb := a.tabled, b.tabled
	if ka == 0 {
		ka = 1 << 20
	}
	if kb == 0 {
		kb = 1 << 20
	}
	return ka < kb
}

// defaultWorkload is the workload of a block nothing places: the dataset
// the report names, else its first workload. A report that names none
// gets the placeholder dataset check reports, never an assumed ShareGPT.
func (p *parser) defaultWorkload() *Workload {
	if p.defaultData == "sharegpt" || p.s.workload("sharegpt") != nil {
		return p.sharegpt()
	}
	if len(p.s.Workloads) > 0 {
		return p.s.Workloads[0]
	}
	w := &Workload{ID: unknownDataset, Dataset: unknownDataset, aliases: []string{unknownDataset}}
	p.s.Workloads = append(p.s.Workloads, w)
	return w
}

func parseBlock(txt string) *benchlog.Block {
	blocks, _ := benchlog.Parse("block", strings.NewReader(txt+"\n"))
	if len(blocks) == 0 {
		return &benchlog.Block{}
	}
	return &blocks[0]
}
