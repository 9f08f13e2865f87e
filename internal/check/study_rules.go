package check

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// Rule ids of the rules that look across a study's runs.
const (
	RuleRequests     = "requests-failed"
	RuleSameData     = "same-data"
	RuleCopy         = "copied-block"
	RuleTradeOff     = "trade-off"
	RulePlausibility = "implausible"
	RuleUnplaced     = "unplaced-run"
)

// TradeOffThreshold is how much worse (in percent) the recommended
// configuration may make mean TTFT or TPOT before a note is expected.
const TradeOffThreshold = report.TradeOffThreshold

// maxPeakPerNode is an output rate no node of today reaches (tokens/s): a
// node of eight of the fastest GPUs peaks at a few tens of thousands.
const maxPeakPerNode = 1e6

// runNodes is how many of the study's nodes a run spans.
func runNodes(s *study.Study, r *study.Run) int {
	if per := s.Hardware.GPUsPerNode; per > 0 && r.GPUs > 0 {
		return (r.GPUs + per - 1) / per
	}
	return max(s.Hardware.Nodes, 1)
}

// sentRequests is how many requests a block's run sent: the count it
// prints, its failed and completed ones together, or the workload's
// num_prompts; 0 when none says.
func sentRequests(s *study.Study, workload string, b *benchlog.Block) float64 {
	sent := 0.0
	if f, ok := b.Metrics["failed"]; ok {
		sent = b.Metrics["completed"].Value + f.Value
	}
	if n, ok := b.Metrics["num_prompts"]; ok {
		sent = n.Value
	} else if w := s.Workload(workload); w != nil && w.NumPrompts > 0 && sent == 0 {
		sent = float64(w.NumPrompts)
	}
	return sent
}

// requestRules reports runs with fewer successful requests than prompts sent.
func requestRules(s *study.Study, r *study.Run, add func(Diagnostic)) {
	for _, lg := range r.Logs {
		for i := range lg.Blocks {
			b := &lg.Blocks[i]
			done, ok := b.Metrics["completed"]
			if !ok {
				continue
			}
			if sent := sentRequests(s, lg.Workload, b); sent > done.Value {
				add(Diagnostic{Rule: RuleRequests, Severity: Warning, File: b.File, Line: done.Line, Subject: r.ID + "/" + lg.Workload,
					Printed: done.Raw, Computed: fmt.Sprintf("%.0f", sent),
					Message: fmt.Sprintf("run %s completed %s of %.0f requests on %s: its throughput covers only the successful ones; find why requests failed, or acknowledge it", r.ID, done.Raw, sent, lg.Workload)})
			}
		}
	}
}

// sameDataRule: runs of one workload must have sent the same input tokens,
// unless failed requests explain a difference.
// How far the input tokens of one random workload may drift between runs:
// newer vLLM and SGLang clients decode the random token ids to text and
// encode them again, which changes a few tokens per prompt, while another
// prompt count or length moves the total by far more.
const (
	randomTokenSlack  = 0.01 // of the total
	randomPromptSlack = 4    // tokens per prompt, for short prompts
)

func randomSlack(total float64, b *benchlog.Block) float64 {
	slack := randomTokenSlack * total
	if n, ok := b.Metrics["completed"]; ok {
		slack = max(slack, randomPromptSlack*n.Value)
	}
	return slack
}

func randomData(w *study.Workload) bool {
	return strings.Contains(strings.ToLower(w.Dataset), "random")
}

func sameDataRule(s *study.Study, excluded map[string]string, add func(Diagnostic)) {
	for i := range s.Workloads {
		w := &s.Workloads[i]
		if w.Sweep == nil {
			sameData(s, w, "", excluded, func(r *study.Run) *benchlog.Block { return r.Result(w.ID) }, add)
			continue
		}
		// A sweep's runs are compared load by load: two loads of one
		// tool may send different requests.
		for _, p := range w.Sweep.Points {
			sameData(s, w, " at "+w.Sweep.Key+" "+p.Raw, excluded, func(r *study.Run) *benchlog.Block {
				for _, pb := range r.SweepBlocks(w) {
					if pb.Point.Value == p.Value {
						return pb.Block
					}
				}
				return nil
			}, add)
		}
	}
}

// sameData compares the input tokens of the runs' blocks of one workload
// (at one load, named by at, of a sweep).
func sameData(s *study.Study, w *study.Workload, at string, excluded map[string]string, blockOf func(*study.Run) *benchlog.Block, add func(Diagnostic)) {
	type seen struct {
		run    *study.Run
		block  *benchlog.Block
		tokens float64
	}
	var all []seen
	for _, r := range s.Runs {
		if excluded[r.ID] != "" {
			continue
		}
		b := blockOf(r)
		if b == nil {
			continue
		}
		if f, ok := b.Metrics["failed"]; ok && f.Value > 0 {
			continue
		}
		// Fewer requests completed than the workload sends: some failed
		// even when the block prints no failed count (guidellm).
		if c, ok := b.Metrics["completed"]; ok && w.NumPrompts > 0 && c.Value < float64(w.NumPrompts) {
			continue
		}
		if t, ok := b.Metrics["total_input_tokens"]; ok {
			all = append(all, seen{r, b, t.Value})
		}
	}
	if len(all) < 2 {
		return
	}
	// The most common count is taken as the workload's; others are flagged.
	count := map[float64]int{}
	for _, x := range all {
		count[x.tokens]++
	}
	common, best := 0.0, 0
	for _, x := range all {
		if count[x.tokens] > best {
			common, best = x.tokens, count[x.tokens]
		}
	}
	runs, tokens := make([]string, len(all)), make([]float64, len(all))
	for i, x := range all {
		runs[i], tokens[i] = x.run.ID, x.tokens
	}
	common, tied := breakTie(w, tokens, common, best, count)
	if tied {
		add(tieDiagnostic(s, w, at, runs, tokens))
		return
	}
	for _, x := range all {
		if x.tokens != common && !(randomData(w) && math.Abs(x.tokens-common) <= randomSlack(common, x.block)) {
			m := x.block.Metrics["total_input_tokens"]
			add(Diagnostic{Rule: RuleSameData, Severity: Error, File: x.block.File, Line: m.Line, Subject: x.run.ID + "/" + w.ID,
				Printed: m.Raw, Computed: fmt.Sprintf("%.0f", common),
				Message: fmt.Sprintf("run %s sent %s input tokens on %s%s, but %d other runs of this workload sent %.0f and no request failed: it ran other data (dataset, seed or prompt count); rerun it on the study's workload", x.run.ID, m.Raw, w.ID, at, best, common)})
		}
	}
}

// blockKey identifies a block by its printed labels and values.
func blockKey(b *benchlog.Block) Digest {
	h := sha256.New()
	for _, l := range b.Labels {
		h.Write([]byte(l.Label))
		h.Write([]byte{'='})
		h.Write([]byte(l.Value))
		h.Write([]byte{'\n'})
	}
	return Digest(h.Sum(nil))
}

// Digest stands for a text the copy rule compares for equality only: the
// first half of its SHA-256. A build of 10,000 studies keeps one per block
// and configuration, 16 bytes instead of some 500.
type Digest [16]byte

func digest(s string) Digest {
	sum := sha256.Sum256([]byte(s))
	return Digest(sum[:16])
}

// BlockRef is what the copy rule needs of one result block: where it is and
// a key of its printed labels and values. A build cache keeps these instead
// of the studies.
type BlockRef struct {
	Study, Run, Workload string
	File                 string
	Line                 int
	Key                  Digest // of the block's printed labels and values
	Config               Digest // of the run's configuration (Configuration)
	// Order is the run's place in its study (runOrder), and Echoed
	// whether the model the block's log echoes is the run's own: true,
	// false, or nil when the log echoes none. They tell a copy from its
	// original.
	Order  int
	Echoed *bool
}

// BlockRefs lists the blocks of a study the copy rule compares: those with
// at least four metrics, in run, log and line order.
func BlockRefs(s *study.Study) []BlockRef {
	var out []BlockRef
	order := runOrder(s)
	for _, r := range s.Runs {
		config := digest(Configuration(r.Command))
		for li := range r.Logs {
			lg := &r.Logs[li]
			// Read once per log, not once per block: each of 8,000
			// blocks searched its whole 9 MB log again.
			echoes := echoLines(lg.Raw)
			for i := range lg.Blocks {
				b := &lg.Blocks[i]
				if len(b.Metrics) < 4 {
					continue
				}
				ref := BlockRef{Study: s.ID, Run: r.ID, Workload: lg.Workload, File: b.File, Line: b.Line, Key: blockKey(b),
					Config: config, Order: order[r.ID]}
				if m := echoedModel(echoes, b.Line); m != "" {
					own := serving.ModelKey(m) == serving.ModelKey(serving.Parse(r.Command).Model)
					ref.Echoed = &own
				}
				out = append(out, ref)
			}
		}
	}
	return out
}

// Copies runs the copy rule over the blocks of every study, given study by
// study in order of id: a block identical to an earlier block of another run,
// in the same study or another, is a warning of the later block's study.
func Copies(blocks [][]BlockRef) map[string][]Diagnostic {
	out := map[string][]Diagnostic{}
	var rule CopyRule
	for _, refs := range blocks {
		for _, d := range rule.Study(refs) {
			out[d.Study] = append(out[d.Study], d)
		}
	}
	return out
}

// CopyRule is the copy rule run one study at a time, in order of id, for a
// build that renders each study as soon as it is checked.
type CopyRule struct {
	first map[Digest]*BlockRef
}

// Study returns the copy rule's warnings on one study's blocks, against
// its own earlier blocks and those of the studies given before it.
func (c *CopyRule) Study(refs []BlockRef) []Diagnostic {
	if c.first == nil {
		c.first = map[Digest]*BlockRef{}
	}
	var out []Diagnostic
	for i := range refs {
		b := &refs[i]
		p, dup := c.first[b.Key]
		if !dup {
			c.first[b.Key] = b
			continue
		}
		// The same run, or the same configuration printed again by a
		// later step as its starting point, is not a copy.
		if p.Study == b.Study && (p.Run == b.Run || p.Config == b.Config) {
			continue
		}
		copied, orig, why := copyOf(p, b)
		// Within a study, two configurations cannot print one block; a
		// block shared with another study may be a study republished.
		sev := Error
		if p.Study != b.Study {
			sev = Warning
		}
		out = append(out, Diagnostic{Study: copied.Study, Rule: RuleCopy, Severity: sev, File: copied.File, Line: copied.Line, Subject: copied.Run + "/" + copied.Workload,
			Message: fmt.Sprintf("this result block is a copy of %s:%d (run %s), whose configuration differs; taken for the copy because %s: replace it with this run's own output", orig.File, orig.Line, orig.Run, why)})
	}
	return out
}

// copyOf tells the copy from the original of two identical blocks, p seen
// first: the one whose log echoes another run's model is the copy; else,
// within a study, the run the study shows later; else the later study's.
func copyOf(p, b *BlockRef) (copied, orig *BlockRef, why string) {
	switch {
	case p.Echoed != nil && b.Echoed != nil && *p.Echoed != *b.Echoed:
		if *p.Echoed {
			return b, p, "its log echoes the other run's model"
		}
		return p, b, "its log echoes the other run's model"
	case p.Study == b.Study && b.Order < p.Order:
		return p, b, "it is the later of the two runs in the study"
	case p.Study == b.Study:
		return b, p, "it is the later of the two runs in the study"
	}
	return b, p, "it is in the later study"
}

// tradeOffRules warns when the recommended configuration is worse than the
// baseline on a workload, or costs latency beyond the threshold, and no
// acknowledgement explains it to readers.
func tradeOffRules(rep *report.Report, add func(Diagnostic)) {
	s := rep.Study
	for _, row := range rep.Rows {
		if row.Change == nil || row.Baseline == nil || row.Optimized == nil {
			continue
		}
		subject := "conclusion/" + row.Workload.ID
		var costs []string
		for _, c := range row.Costs(rep.Headline) {
			if c.From == "" {
				costs = append(costs, fmt.Sprintf("%s %s", c.Metric, report.FormatPercent(c.Percent)))
			} else {
				costs = append(costs, fmt.Sprintf("%s %s (%s -> %s ms)", c.Metric, report.FormatPercent(c.Percent), c.From, c.To))
			}
		}
		if len(costs) > 0 {
			add(Diagnostic{Rule: RuleTradeOff, Severity: Warning, File: s.Recommended.Pos.File, Line: s.Recommended.Pos.Line, Subject: subject,
				Message: fmt.Sprintf("on %s the recommended configuration is worse than the baseline: %s; tell readers with an acknowledgement of rule %s, subject %s, whose reason explains the trade-off", row.Workload.ID, strings.Join(costs, ", "), RuleTradeOff, subject)})
		}
	}
}

// plausibilityRules catches values no real run can print.
func plausibilityRules(s *study.Study, r *study.Run, add func(Diagnostic)) {
	for _, lg := range r.Logs {
		for i := range lg.Blocks {
			b := &lg.Blocks[i]
			dur, hasDur := b.Metrics["duration"]
			// Map order does not matter: diagnostics are sorted afterwards.
			for k, m := range b.Metrics {
				switch {
				case strings.HasSuffix(k, "_throughput") && m.Value <= 0 && k != "request_goodput":
					add(Diagnostic{Rule: RulePlausibility, Severity: Error, File: b.File, Line: m.Line, Subject: r.ID,
						Message: fmt.Sprintf("%s is %s: a run that served requests has a positive throughput; check that the benchmark reached the server", k, m.Raw)})
				case (k == "max_output_tokens_per_s" || k == "output_throughput") && b.Definition == benchlog.CountOverDuration &&
					m.Value > maxPeakPerNode*float64(runNodes(s, r)):
					add(Diagnostic{Rule: RulePlausibility, Severity: Error, File: b.File, Line: m.Line, Subject: r.ID,
						Message: fmt.Sprintf("%s %s tok/s on %d node(s) is beyond what a node reaches (%.0f tok/s): the block was edited or mixes units; paste it again as printed", k, m.Raw, runNodes(s, r), maxPeakPerNode)})
				case (k == "median_itl_ms" || k == "median_tpot_ms") && m.Value == 0 && b.Definition == benchlog.CountOverDuration && outputTokensPerRequest(b) > 1:
					add(Diagnostic{Rule: RulePlausibility, Severity: Warning, File: b.File, Line: m.Line, Subject: r.ID,
						Message: fmt.Sprintf("%s is %s while requests produced more than one output token each: a token cannot follow another in no time; check the block's units", k, m.Raw)})
				case hasDur && b.Definition == benchlog.CountOverDuration && strings.HasSuffix(k, "_ms") && !strings.HasPrefix(k, "std_") &&
					(strings.Contains(k, "ttft") || strings.Contains(k, "e2el")) && m.Value > (dur.Value+0.01)*1000:
					add(Diagnostic{Rule: RulePlausibility, Severity: Error, File: b.File, Line: m.Line, Subject: r.ID,
						Message: fmt.Sprintf("%s is %s ms, longer than the whole benchmark (%s s): the block mixes two runs or was edited", k, m.Raw, dur.Raw)})
				}
			}
		}
	}
}

// outputTokensPerRequest is the mean number of output tokens per completed
// request of a block, 0 when unknown.
func outputTokensPerRequest(b *benchlog.Block) float64 {
	out, ok1 := b.Metrics["total_output_tokens"]
	n, ok2 := b.Metrics["completed"]
	if !ok1 || !ok2 || n.Value <= 0 {
		return 0
	}
	return out.Value / n.Value
}
