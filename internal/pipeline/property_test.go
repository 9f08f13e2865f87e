package pipeline

import (
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/site"
)

// A change is one edit a pull request makes to a copy of the
// repository: a planted mistake or a harmless edit, its parameters drawn
// from rng. It returns what it did, for the failure message, or "" when
// the copy offers nothing to edit.
type change func(t *testing.T, d Dirs, rng *rand.Rand) string

// changes are the kinds of edits TestCheckGreenBuildGreen draws from.
var changes = []struct {
	name string
	do   change
}{
	{"change a figure in a log", changeLogFigure},
	{"price another GPU", changePrices},
	{"drop a locale message", dropLocaleMessage},
	{"change a workload setting", changeWorkloadSetting},
	{"edit prose", editProse},
	{"rename a run", renameRun},
	{"change an engine version", changeEngineVersion},
	{"change a run's GPUs", changeRunGPUs},
	{"delete a log", deleteLog},
	{"drop an acknowledgement", dropAcknowledgement},
	{"end lines with CRLF", crlfFile},
	{"change a figure in study.yaml", changeStudyFigure},
	{"delete a line of a YAML file", deleteYAMLLine},
	{"copy a log onto another run", copyLog},
	{"give a run a hostile name", hostileRunName},
	{"make a run a failed one", failRun},
	{"set a figure of a log to an extreme", extremeLogFigure},
	{"change the recommended or baseline runs", changeConfigs},
}

// propertyCases, when set, draws that many cases instead: to look for
// more, go test ./internal/pipeline -run CheckGreen -property.cases 500.
var propertyCases = flag.Int("property.cases", 0, "cases TestCheckGreenBuildGreen draws (0: its default)")

// propertySeed fixes the draws: the same cases every run.
const propertySeed = 42

// TestCheckGreenBuildGreen plants generated mistakes and harmless edits
// (one to three a case) into copies of the repository's studies, prose,
// locales and templates, and holds perflab to its promise: wherever check
// passes, build passes. With -short it draws fewer cases.
func TestCheckGreenBuildGreen(t *testing.T) {
	t.Parallel()
	cases := 2 * len(changes)
	switch {
	case *propertyCases > 0:
		cases = *propertyCases
	case testing.Short():
		cases = len(changes)
	}
	var green, acked atomic.Int32
	t.Cleanup(func() {
		t.Logf("%d cases (%d with problems acknowledged), %d with check green, each built", cases, acked.Load(), green.Load())
	})
	for i := range cases {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			checkGreenBuildGreen(t, i, &green, &acked)
		})
	}
}

// checkGreenBuildGreen draws case i's changes, plants them into a copy of
// the repository and builds it if check passes.
func checkGreenBuildGreen(t *testing.T, i int, green, acked *atomic.Int32) {
	rng := rand.New(rand.NewPCG(propertySeed, uint64(i)))
	d := copyTree(t)
	var did []string
	for k := range 1 + rng.IntN(3) {
		c := changes[i%len(changes)] // every kind first on its own, then with others
		if k > 0 {
			c = changes[rng.IntN(len(changes))]
		}
		if what := c.do(t, d, rng); what != "" {
			did = append(did, c.name+": "+what)
		}
	}
	p, err := Check(d, nil)
	if err == nil && p.Failed() && rng.IntN(2) == 0 {
		// A maintainer acknowledges every problem that can be: the
		// report then shows each of them, of whatever rule.
		if what := acknowledgeAll(t, d, p); what != "" {
			did = append(did, "acknowledge "+what)
			acked.Add(1)
			p, err = Check(d, nil)
		}
	}
	if err != nil || p.Failed() {
		return // check is red: the build may fail
	}
	green.Add(1)
	if _, err := Build(d, &lockedFiles{files: site.Files{}}); err != nil {
		t.Errorf("case %d: check passes, build fails: %v\nchanges:\n  %s", i, err, strings.Join(did, "\n  "))
	}
}

// filesUnder lists the files under dir whose name ends in suffix, in
// lexical order.
func filesUnder(t *testing.T, dir, suffix string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() && strings.HasSuffix(p, suffix) {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

func readText(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func writeText(t *testing.T, file, text string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replaceMatch replaces one match of re in file, drawn by rng, with what
// repl makes of it; false when nothing matches.
func replaceMatch(t *testing.T, file string, re *regexp.Regexp, rng *rand.Rand, repl func(string) string) (old, new string, ok bool) {
	text := readText(t, file)
	locs := re.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return "", "", false
	}
	l := pick(rng, locs)
	old = text[l[0]:l[1]]
	new = repl(old)
	writeText(t, file, text[:l[0]]+new+text[l[1]:])
	return old, new, true
}

var decimalRE = regexp.MustCompile(`\b[0-9]+\.[0-9]+\b`)

// scaled is a decimal figure times a factor from 0.5 to 1.5, or itself,
// written with the same number of decimals.
func scaled(rng *rand.Rand, figure string) string {
	v, err := strconv.ParseFloat(figure, 64)
	if err != nil {
		return figure
	}
	decimals := len(figure) - strings.IndexByte(figure, '.') - 1
	factors := []float64{1, 0.5, 0.9, 0.99, 1.01, 1.1, 1.5}
	return strconv.FormatFloat(v*pick(rng, factors), 'f', decimals, 64)
}

func changeLogFigure(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Results, ".log"))
	old, new, ok := replaceMatch(t, file, decimalRE, rng, func(s string) string { return scaled(rng, s) })
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s: %s -> %s", file, old, new)
}

func changePrices(t *testing.T, d Dirs, rng *rand.Rand) string {
	gpu := pick(rng, []string{"NVIDIA H100 SXM 80GB", "NVIDIA A100 SXM 80GB", "NVIDIA L40S", "AMD MI300X"})
	text := fmt.Sprintf("prices:\n  - gpu: %s\n    gpu_hour: %s\n    currency: %s\n", gpu,
		pick(rng, []string{"1.80", "0.01", "2.5", "1000000"}), pick(rng, []string{"USD", "EUR", "CNY"}))
	writeText(t, filepath.Join(d.Results, "prices.yaml"), text)
	return strings.ReplaceAll(text, "\n", " ")
}

var topKeyRE = regexp.MustCompile(`(?m)^([a-z][a-z0-9_.-]*):`)

func dropLocaleMessage(t *testing.T, d Dirs, rng *rand.Rand) string {
	keys := topKeyRE.FindAllStringSubmatch(readText(t, filepath.Join(d.Locales, "en.yaml")), -1)
	key := pick(rng, keys)[1]
	langs := pick(rng, [][]string{{"en"}, {"zh"}, {"ja"}, {"en", "zh", "ja"}})
	line := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(key) + `:.*\n`)
	for _, lang := range langs {
		file := filepath.Join(d.Locales, lang+".yaml")
		writeText(t, file, line.ReplaceAllString(readText(t, file), ""))
	}
	return fmt.Sprintf("%s from %v", key, langs)
}

var settingRE = regexp.MustCompile(`(?m)(num_prompts|input_len|output_len|max_concurrency|seed): [0-9]+`)

func changeWorkloadSetting(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Results, "study.yaml"))
	old, new, ok := replaceMatch(t, file, settingRE, rng, func(s string) string {
		key, _, _ := strings.Cut(s, ":")
		return key + ": " + pick(rng, []string{"1", "42", "100", "500", "1000", "4000", "32000"})
	})
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s: %s -> %s", file, old, new)
}

func editProse(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Content, ".md"))
	text := readText(t, file)
	lines := strings.Split(text, "\n")
	i := rng.IntN(len(lines))
	switch rng.IntN(4) {
	case 0: // a sentence with a figure
		lines[i] += pick(rng, []string{" The gain is 59.2 %.", " Throughput rose by 12.5 %.", " 吞吐量提升 95.2%。", " スループットが 10% 向上しました。"})
	case 1: // a figure changed
		lines[i] = decimalRE.ReplaceAllStringFunc(lines[i], func(s string) string { return scaled(rng, s) })
	case 2:
		lines = slices.Delete(lines, i, i+1)
	default: // a harmless rewording
		lines[i] = strings.Replace(lines[i], " the ", " this ", 1)
	}
	writeText(t, file, strings.Join(lines, "\n"))
	return fmt.Sprintf("%s line %d", file, i+1)
}

func runDirs(t *testing.T, d Dirs) []string {
	var out []string
	for _, log := range filesUnder(t, d.Results, "run.yaml") {
		if filepath.Base(filepath.Dir(filepath.Dir(log))) == "runs" {
			out = append(out, filepath.Dir(log))
		}
	}
	return out
}

// renameRun renames a run's folder, and, drawn, every mention of its id
// in its study and prose (a harmless rename) or none (a dangling id).
func renameRun(t *testing.T, d Dirs, rng *rand.Rand) string {
	dir := pick(rng, runDirs(t, d))
	old := filepath.Base(dir)
	id := old + pick(rng, []string{"-b", "2", "-renamed"})
	if err := os.Rename(dir, filepath.Join(filepath.Dir(dir), id)); err != nil {
		t.Fatal(err)
	}
	if rng.IntN(2) == 0 {
		return dir + " -> " + id + ", mentions kept"
	}
	studyDir := filepath.Dir(filepath.Dir(dir))
	mention := regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(old) + `($|[^A-Za-z0-9_-])`)
	files := append(filesUnder(t, studyDir, ".yaml"), filesUnder(t, d.Content, filepath.Base(studyDir)+".md")...)
	for _, f := range files {
		writeText(t, f, mention.ReplaceAllString(readText(t, f), "${1}"+id+"${2}"))
	}
	return dir + " -> " + id + ", mentions renamed"
}

var versionRE = regexp.MustCompile(`(?m)^    version: \S+`)

func changeEngineVersion(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Results, "study.yaml"))
	old, new, ok := replaceMatch(t, file, versionRE, rng, func(string) string {
		return "    version: " + pick(rng, []string{"v0.10.1", "v0.11.0", "v1.0.0", "0.5.5"})
	})
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s: %s -> %s", file, strings.TrimSpace(old), strings.TrimSpace(new))
}

var gpusRE = regexp.MustCompile(`(?m)^gpus: [0-9]+`)

func changeRunGPUs(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := filepath.Join(pick(rng, runDirs(t, d)), "run.yaml")
	_, new, ok := replaceMatch(t, file, gpusRE, rng, func(string) string { return "gpus: " + pick(rng, []string{"1", "2", "4", "8", "16"}) })
	if !ok {
		return ""
	}
	return file + ": " + new
}

func deleteLog(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Results, ".log"))
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	return file
}

var ackRE = regexp.MustCompile(`(?m)^  - rule: .*\n(    .*\n|      .*\n)*`)

func dropAcknowledgement(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Results, "study.yaml"))
	old, _, ok := replaceMatch(t, file, ackRE, rng, func(string) string { return "" })
	if !ok {
		return ""
	}
	return file + ": " + strings.SplitN(old, "\n", 3)[0] + " " + strings.SplitN(old, "\n", 3)[1]
}

func crlfFile(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, slices.Concat(filesUnder(t, d.Results, ".yaml"), filesUnder(t, d.Results, ".log"),
		filesUnder(t, d.Content, ".md"), filesUnder(t, d.Locales, ".yaml")))
	writeText(t, file, strings.ReplaceAll(readText(t, file), "\n", "\r\n"))
	return file
}

func changeStudyFigure(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Results, "study.yaml"))
	old, new, ok := replaceMatch(t, file, decimalRE, rng, func(s string) string { return scaled(rng, s) })
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s: %s -> %s", file, old, new)
}

func deleteYAMLLine(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, slices.Concat(filesUnder(t, d.Results, ".yaml"), filesUnder(t, d.Content, ".md")))
	lines := strings.Split(readText(t, file), "\n")
	i := rng.IntN(len(lines))
	writeText(t, file, strings.Join(slices.Delete(lines, i, i+1), "\n"))
	return fmt.Sprintf("%s line %d", file, i+1)
}

// copyLog puts one run's log of a workload in place of another run's.
func copyLog(t *testing.T, d Dirs, rng *rand.Rand) string {
	logs := filesUnder(t, d.Results, ".log")
	from := pick(rng, logs)
	var same []string
	for _, l := range logs {
		if l != from && filepath.Base(l) == filepath.Base(from) && filepath.Dir(filepath.Dir(filepath.Dir(l))) == filepath.Dir(filepath.Dir(filepath.Dir(from))) {
			same = append(same, l)
		}
	}
	if len(same) == 0 {
		return ""
	}
	to := pick(rng, same)
	writeText(t, to, readText(t, from))
	return from + " -> " + to
}

// acknowledgeAll acknowledges, in its study.yaml, every unacknowledged
// error of p that names a subject, and says which.
func acknowledgeAll(t *testing.T, d Dirs, p *Project) string {
	items := map[string][]string{} // study -> its new acknowledgements
	var did []string
	for _, dg := range p.Diagnostics() {
		if dg.Severity != check.Error || dg.Acknowledged() || dg.Subject == "" || dg.Study == "" {
			continue
		}
		item := fmt.Sprintf("  - rule: %s\n    subject: %q\n    reason:\n      en: \"Accepted by a test.\"\n      zh: \"这是测试加入的确认。\"\n      ja: \"テストで追加した確認です。\"\n", dg.Rule, dg.Subject)
		if !slices.Contains(items[dg.Study], item) {
			items[dg.Study] = append(items[dg.Study], item)
			did = append(did, dg.Study+" "+dg.Rule+" "+dg.Subject)
		}
	}
	for id, list := range items {
		file := filepath.Join(d.Results, id, "study.yaml")
		text := readText(t, file)
		if i := strings.Index(text, "\nacknowledged:\n"); i >= 0 {
			at := i + len("\nacknowledged:\n")
			text = text[:at] + strings.Join(list, "") + text[at:]
		} else {
			text = strings.TrimRight(text, "\n") + "\nacknowledged:\n" + strings.Join(list, "")
		}
		writeText(t, file, text)
	}
	slices.Sort(did)
	return strings.Join(did, ", ")
}

var nameRE = regexp.MustCompile(`(?m)^name: .*`)

func hostileRunName(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := filepath.Join(pick(rng, runDirs(t, d)), "run.yaml")
	name := pick(rng, []string{`"x) [a](//evil.example) <script>"`, `"` + strings.Repeat("長", 80) + `"`, `"{{.Run}} %s %!d"`, `"|a|b|"`, `"**bold** _it_ \\"`})
	if _, _, ok := replaceMatch(t, file, nameRE, rng, func(string) string { return "name: " + name }); !ok {
		return ""
	}
	return file + ": name " + name
}

// failRun turns a run into one that failed: an error, and no logs.
func failRun(t *testing.T, d Dirs, rng *rand.Rand) string {
	dir := pick(rng, runDirs(t, d))
	for _, log := range filesUnder(t, dir, ".log") {
		if err := os.Remove(log); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "run.yaml")
	writeText(t, file, strings.TrimRight(readText(t, file), "\n")+"\nerror: \"CUDA out of memory\"\n")
	return dir
}

func extremeLogFigure(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Results, ".log"))
	old, new, ok := replaceMatch(t, file, decimalRE, rng, func(string) string {
		return pick(rng, []string{"0.00", "0.0001", "99999999999.99", "1e308", "nan", "inf", "-1.00", ".5", "5.", "+5.0", "05.00", "1E3", "Infinity"})
	})
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s: %s -> %s", file, old, new)
}

var configRE = regexp.MustCompile(`(?m)^(recommended|baseline|    reference): .*`)

// changeConfigs points the recommended or baseline configuration, or a
// step's reference, at other runs of the study.
func changeConfigs(t *testing.T, d Dirs, rng *rand.Rand) string {
	file := pick(rng, filesUnder(t, d.Results, "study.yaml"))
	var runs []string
	for _, dir := range runDirs(t, d) {
		if strings.HasPrefix(dir, filepath.Dir(file)+string(filepath.Separator)) {
			runs = append(runs, filepath.Base(dir))
		}
	}
	old, new, ok := replaceMatch(t, file, configRE, rng, func(s string) string {
		key, _, _ := strings.Cut(s, ":")
		if strings.TrimSpace(key) == "reference" {
			return key + ": " + pick(rng, runs)
		}
		return key + ": [" + pick(rng, runs) + "]"
	})
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s: %s -> %s", file, old, new)
}
