package check

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// RuleWorkload holds a workload's stated settings (study.yaml) against
// what its logs measured.
const RuleWorkload = "workload-mismatch"

// sighting is what one block says about one setting of its workload.
type sighting struct {
	run   string
	block *benchlog.Block
	line  int     // where the block shows it
	value float64 // what it shows
	how   string  // "sent 500 requests", "echoes num_prompts=500"
	agree bool
	weak  bool // may be explained by failed requests, or outputs stopped early, instead
}

// workloadEvidenceRule compares each stated setting of each workload with
// every block of it; the majority decides who is wrong (docs/checks.md).
func workloadEvidenceRule(s *study.Study, add func(Diagnostic)) {
	for i := range s.Workloads {
		w := &s.Workloads[i]
		blocks := workloadBlocks(s, w)
		confirmed := map[string]bool{} // fields the majority of logs agree with
		if w.NumPrompts > 0 {
			confirmed["num_prompts"] = judge(s, w, "num_prompts", float64(w.NumPrompts), promptSightings(w, blocks), add)
		}
		if w.MaxConcurrency != nil && w.Sweep == nil {
			confirmed["max_concurrency"] = judge(s, w, "max_concurrency", float64(*w.MaxConcurrency), exactSightings(blocks, float64(*w.MaxConcurrency), "max_concurrency", "prints concurrency"), add)
		}
		if w.InputLen > 0 {
			confirmed["input_len"] = judge(s, w, "input_len", float64(w.InputLen), lengthSightings(s, w, blocks, "total_input_tokens", "random_input_len", w.InputLen), add)
		}
		if w.OutputLen > 0 {
			confirmed["output_len"] = judge(s, w, "output_len", float64(w.OutputLen), lengthSightings(s, w, blocks, "total_output_tokens", "random_output_len", w.OutputLen), add)
		}
		confirmed["dataset"] = datasetRule(s, w, blocks, add)
		workloadCommandRule(s, w, confirmed, add)
	}
}

// runBlock is one block of a workload with the echo of settings its log
// printed before it (a Namespace(...) line).
type runBlock struct {
	run   string
	block *benchlog.Block
	echo  map[string]echoed
}

type echoed struct {
	value string
	line  int
}

func workloadBlocks(s *study.Study, w *study.Workload) []runBlock {
	var out []runBlock
	for _, r := range s.Runs {
		for li := range r.Logs {
			lg := &r.Logs[li]
			if lg.Workload != w.ID {
				continue
			}
			echoes := echoLines(lg.Raw)
			for bi := range lg.Blocks {
				b := &lg.Blocks[bi]
				if b.Definition != benchlog.CountOverDuration || b.Failure != nil {
					continue
				}
				out = append(out, runBlock{r.ID, b, ownEcho(b, echoBefore(echoes, b.Line))})
			}
		}
	}
	return out
}

// ownEcho drops an echo that cannot be the block's own: one of fewer
// prompts than the block completed (a log that pasted another run's
// settings, or a wrapper that printed them once for several runs).
func ownEcho(b *benchlog.Block, echo map[string]echoed) map[string]echoed {
	e, ok := echo["num_prompts"]
	done, hasDone := b.Metrics["completed"]
	if v, err := strconv.ParseFloat(e.value, 64); ok && hasDone && err == nil && v < done.Value {
		return nil
	}
	return echo
}

// echoField reads the settings a benchmark client echoes as a Python
// Namespace: num_prompts=500, dataset_name='random'.
var echoField = regexp.MustCompile(`\b(num_prompts|random_input_len|random_output_len|dataset_name|max_concurrency|model)=(?:'([^']*)'|([0-9.]+|None))`)

type echoLine struct {
	line   int
	fields map[string]string
}

func echoLines(raw []byte) []echoLine {
	if !bytes.Contains(raw, []byte("Namespace(")) {
		return nil
	}
	var out []echoLine
	for i, line := range strings.Split(string(raw), "\n") {
		if !strings.Contains(line, "Namespace(") {
			continue
		}
		f := map[string]string{}
		for _, m := range echoField.FindAllStringSubmatch(line, -1) {
			f[m[1]] = m[2] + m[3]
		}
		out = append(out, echoLine{i + 1, f})
	}
	return out
}

// echoBefore is the last echo printed before a block's first line.
// echoes are in line order: a binary search, since a log may hold
// thousands of echoes and blocks.
func echoBefore(echoes []echoLine, line int) map[string]echoed {
	k := sort.Search(len(echoes), func(i int) bool { return echoes[i].line >= line })
	if k == 0 {
		return nil
	}
	last := &echoes[k-1]
	out := map[string]echoed{}
	for k, v := range last.fields {
		out[k] = echoed{v, last.line}
	}
	return out
}

// promptSightings: how many requests each block sent. Completed plus
// failed, or the echo, is exact; completed alone is exact when it passes
// the stated count and weak when short of it (requests may have failed).
func promptSightings(w *study.Workload, blocks []runBlock) []sighting {
	stated := float64(w.NumPrompts)
	var out []sighting
	for _, rb := range blocks {
		b := rb.block
		done, hasDone := b.Metrics["completed"]
		if e, ok := rb.echo["num_prompts"]; ok {
			if v, err := strconv.ParseFloat(e.value, 64); err == nil {
				out = append(out, sighting{run: rb.run, block: b, line: e.line, value: v, how: "echoes num_prompts=" + e.value, agree: v == stated})
				continue
			}
		}
		if !hasDone {
			continue
		}
		if f, ok := b.Metrics["failed"]; ok {
			v := done.Value + f.Value
			out = append(out, sighting{run: rb.run, block: b, line: done.Line, value: v,
				how: fmt.Sprintf("sent %.0f requests (%s completed, %s failed)", v, done.Raw, f.Raw), agree: v == stated})
			continue
		}
		out = append(out, sighting{run: rb.run, block: b, line: done.Line, value: done.Value,
			how: fmt.Sprintf("completed %s requests", done.Raw), agree: done.Value == stated, weak: done.Value < stated})
	}
	return out
}

// exactSightings: a setting the block prints itself or echoes.
func exactSightings(blocks []runBlock, stated float64, key, how string) []sighting {
	var out []sighting
	for _, rb := range blocks {
		if m, ok := rb.block.Metrics[key]; ok {
			out = append(out, sighting{run: rb.run, block: rb.block, line: m.Line, value: m.Value, how: how + " " + m.Raw, agree: m.Value == stated})
		} else if e, ok := rb.echo[key]; ok {
			if v, err := strconv.ParseFloat(e.value, 64); err == nil {
				out = append(out, sighting{run: rb.run, block: rb.block, line: e.line, value: v, how: "echoes " + key + "=" + e.value, agree: v == stated})
			}
		}
	}
	return out
}

// lengthSightings: the mean length per request of each block of a random
// workload, held to the stated length within tokenizer slack (the
// randomSlack of same-data), widened by the range ratio and prefix the
// workload's command sets. Only vLLM's client sends exactly the stated
// length by default; other clients (SGLang's) draw lengths up to it, so
// for them only a mean above the stated length disagrees.
func lengthSightings(s *study.Study, w *study.Workload, blocks []runBlock, key, echoKey string, stated int) []sighting {
	ratio, prefix := commandFloat(w.Command, "random-range-ratio"), 0.0
	if key == "total_input_tokens" {
		prefix = max(commandFloat(w.Command, "random-prefix-len"), commandFloat(s.Benchmark.Commands, "random-prefix-len"))
	}
	// A range ratio that only the study's benchmark commands set may
	// belong to this workload, read with an older client's meaning
	// ([ratio x len, len]): only a mean above the length disagrees then.
	otherRatio := commandFloat(s.Benchmark.Commands, "random-range-ratio")
	ratio = max(ratio, otherRatio)
	// Without --ignore-eos a request stops at its end-of-sequence token:
	// a reasoning model's outputs may end far short of the limit.
	stopsEarly := key == "total_output_tokens" && !commandHas(w.Command, "ignore-eos") && !commandHas(s.Benchmark.Commands, "ignore-eos")
	var out []sighting
	for _, rb := range blocks {
		b := rb.block
		if e, ok := rb.echo[echoKey]; ok {
			if v, err := strconv.ParseFloat(e.value, 64); err == nil {
				out = append(out, sighting{run: rb.run, block: b, line: e.line, value: v, how: "echoes " + echoKey + "=" + e.value, agree: v == float64(stated)})
				continue
			}
		}
		tok, ok1 := b.Metrics[key]
		done, ok2 := b.Metrics["completed"]
		if !ok1 || !ok2 || done.Value <= 0 {
			continue
		}
		mean := tok.Value / done.Value
		hi := (float64(stated)*(1+ratio)+prefix)*(1+randomTokenSlack) + randomPromptSlack
		lo := 0.0
		if b.Tool == benchlog.ToolVLLM && otherRatio == 0 {
			lo = (float64(stated)*(1-ratio)+prefix)*(1-randomTokenSlack) - randomPromptSlack
			if key == "total_output_tokens" {
				lo = float64(stated) * outputEOSFloor
			}
		}
		out = append(out, sighting{run: rb.run, block: b, line: tok.Line, value: mean,
			how:   fmt.Sprintf("measured %.1f tokens per request (%s / %s)", mean, tok.Raw, done.Raw),
			agree: mean >= lo && mean <= hi, weak: stopsEarly && mean < lo})
	}
	return out
}

// outputEOSFloor: a request may stop at an end-of-sequence token before
// its output length, so a vLLM client's mean output is held to a bit
// over half of it (the lowest of the imported reports is 0.67); a
// doubled output_len falls below. Below it, a benchmark that did not
// pass --ignore-eos may still have run the stated workload (a reasoning
// model's answers of 389.5 and 441.5 tokens under a 4,000-token limit):
// only runs that all stopped at the same mean contradict the study then,
// and runs that stopped at different means are output-length's to flag.
const outputEOSFloor = 0.55

// commandHas reports whether a benchmark command passes a flag.
func commandHas(command, flag string) bool {
	for _, f := range serving.Parse(command).Flags {
		if f.Name == flag {
			return true
		}
	}
	return false
}

// commandFloat is the value of a flag of a benchmark command, 0 if absent.
func commandFloat(command, flag string) float64 {
	for _, f := range serving.Parse(command).Flags {
		if f.Name == flag {
			v, _ := strconv.ParseFloat(f.Value, 64)
			return v
		}
	}
	return 0
}

// datasetRule: the dataset a log echoes must be the stated one.
func datasetRule(s *study.Study, w *study.Workload, blocks []runBlock, add func(Diagnostic)) bool {
	if w.Dataset == "" {
		return false
	}
	var sights []sighting
	for _, rb := range blocks {
		if e, ok := rb.echo["dataset_name"]; ok {
			sights = append(sights, sighting{run: rb.run, block: rb.block, line: e.line, how: "echoes dataset_name='" + e.value + "'",
				agree: strings.EqualFold(e.value, w.Dataset)})
		}
	}
	return judge(s, w, "dataset", 0, sights, add)
}

// judge weighs the sightings of one setting: when most blocks contradict
// the stated value, or all that say anything do so weakly and agree among
// themselves, the study is wrong and the error sits on its line; a tie
// says it is a tie; a minority that contradicts it is blamed on its own
// lines, as the runs that ran something else. It reports whether the
// logs confirm the stated value: most of those that show it agree.
func judge(s *study.Study, w *study.Workload, field string, stated float64, sights []sighting, add func(Diagnostic)) bool {
	var agree, strong, weak []sighting
	for _, x := range sights {
		switch {
		case x.agree:
			agree = append(agree, x)
		case x.weak:
			weak = append(weak, x)
		default:
			strong = append(strong, x)
		}
	}
	subject := "workload/" + w.ID
	onStudy := func(msg string) {
		add(Diagnostic{Rule: RuleWorkload, Severity: Error, File: s.Pos.File, Line: w.Line(field), Subject: subject, Message: msg})
	}
	// One run alone cannot outvote the study while other runs measured
	// the workload too: its logs may be the odd ones.
	alone := distinctRuns(strong) == 1 && distinctRuns(sights) > 1
	switch {
	case len(strong) > len(agree) && !alone:
		onStudy(fmt.Sprintf("workload %s: %s is %s here, but %d of %d logs of it say otherwise (%s): correct %s to what the logs measured",
			w.ID, field, statedText(w, field, stated), len(strong), len(strong)+len(agree), listSightings(strong), field))
	case len(strong) > 0 && len(strong) == len(agree) && !alone:
		onStudy(fmt.Sprintf("workload %s: %s is %s here; it is a tie: %d logs agree (%s) and %d do not (%s): find out which runs ran the stated workload, then fix %s or rerun the others",
			w.ID, field, statedText(w, field, stated), len(agree), listSightings(agree), len(strong), listSightings(strong), field))
	case len(strong) > 0:
		for _, x := range strong {
			add(Diagnostic{Rule: RuleWorkload, Severity: Error, File: x.block.File, Line: x.line, Subject: x.run + "/" + w.ID,
				Message: fmt.Sprintf("run %s %s on %s, but the study states %s %s (%s:%d) and %d other logs agree with it (%s): rerun it on the study's workload",
					x.run, x.how, w.ID, field, statedText(w, field, stated), s.Pos.File, w.Line(field), len(agree), listSightings(agree))})
		}
	case len(agree) == 0 && len(weak) >= 2 && distinctRuns(weak) >= 2 && sameValue(weak):
		onStudy(fmt.Sprintf("workload %s: %s is %s here, but no log of it reached that: every one %s (%s), %s: correct %s to what the logs measured",
			w.ID, field, statedText(w, field, stated), weak[0].how, listSightings(weak), weakUnexplained(field), field))
	}
	return len(agree) > len(strong)
}

// weakUnexplained says why weak sightings that all agree are not
// explained by what made each weak.
func weakUnexplained(field string) string {
	if field == "output_len" {
		return "the same in every run, which outputs stopping at their end-of-sequence tokens would not give"
	}
	return "none printing a failed request"
}

func statedText(w *study.Workload, field string, v float64) string {
	if field == "dataset" {
		return w.Dataset
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// listSightings names the runs and what they show, a few at most.
func listSightings(xs []sighting) string {
	var parts []string
	for i, x := range xs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(xs)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("run %s %s at %s:%d", x.run, x.how, x.block.File, x.line))
	}
	return strings.Join(parts, "; ")
}

func distinctRuns(xs []sighting) int {
	seen := map[string]bool{}
	for _, x := range xs {
		seen[x.run] = true
	}
	return len(seen)
}

func sameValue(xs []sighting) bool {
	for _, x := range xs {
		if x.value != xs[0].value {
			return false
		}
	}
	return true
}

// workloadCommandRule: the workload's own benchmark command, as the study
// shows it, must pass the settings the study states.
// When the logs confirm the stated value, the command is what is wrong,
// and the error sits on its line; otherwise on the field's.
func workloadCommandRule(s *study.Study, w *study.Workload, confirmed map[string]bool, add func(Diagnostic)) {
	if w.Command == "" {
		return
	}
	flags := map[string]string{}
	for _, f := range serving.Parse(w.Command).Flags {
		flags[f.Name] = f.Value
	}
	stated := map[string]string{"dataset-name": w.Dataset}
	fields := map[string]string{"dataset-name": "dataset", "num-prompts": "num_prompts", "random-input-len": "input_len",
		"random-output-len": "output_len", "max-concurrency": "max_concurrency", "seed": "seed"}
	if w.NumPrompts > 0 {
		stated["num-prompts"] = strconv.Itoa(w.NumPrompts)
	}
	if w.InputLen > 0 {
		stated["random-input-len"] = strconv.Itoa(w.InputLen)
		stated["random-output-len"] = strconv.Itoa(w.OutputLen)
	}
	if w.MaxConcurrency != nil && w.Sweep == nil {
		stated["max-concurrency"] = strconv.Itoa(*w.MaxConcurrency)
	}
	if w.Seed != nil {
		stated["seed"] = strconv.Itoa(*w.Seed)
	}
	var names []string
	for n := range stated {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		got, ok := flags[n]
		if !ok || stated[n] == "" || strings.EqualFold(got, stated[n]) || strings.HasPrefix(got, "$") {
			continue
		}
		if confirmed[fields[n]] {
			add(Diagnostic{Rule: RuleWorkload, Severity: Error, File: s.Pos.File, Line: w.Line("command"), Subject: "workload/" + w.ID,
				Printed: got, Computed: stated[n],
				Message: fmt.Sprintf("workload %s: its command passes --%s %s, but %s is %s (line %d) and the logs agree with that: correct the command", w.ID, n, got, fields[n], stated[n], w.Line(fields[n]))})
			continue
		}
		add(Diagnostic{Rule: RuleWorkload, Severity: Error, File: s.Pos.File, Line: w.Line(fields[n]), Subject: "workload/" + w.ID,
			Printed: stated[n], Computed: got,
			Message: fmt.Sprintf("workload %s: %s is %s, but its command (line %d) passes --%s %s: make the two agree with what the logs measured",
				w.ID, fields[n], stated[n], w.Line("command"), n, got)})
	}
}
