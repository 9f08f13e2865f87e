package main

import (
	"flag"
	"fmt"
	"strings"
)

// commandHelp is what "perflab <command> -h" prints around the flags.
type commandHelp struct {
	args     string // what follows the flags, "" for none
	about    string // what the command does, in a few lines
	examples []string
}

var helps = map[string]commandHelp{
	"record": {
		args: "-- BENCHMARK COMMAND...",
		about: `Runs a benchmark command, shows its output as it comes and keeps it, byte
for byte, as the log of a new run of an existing study. run.yaml is
written as perflab add writes it, plus what was captured: the benchmark
command, the engine version the output prints, the GPUs nvidia-smi lists,
host, date and perflab's version; what could not be captured is null, with
a comment saying why. A failed or interrupted benchmark adds no run: its
output is kept, marked as partial, in a hidden folder of the results.`,
		examples: []string{
			"perflab record --study qwen3-32b-a100 --run vllm-fp8 --workload sharegpt -- vllm bench serve --model Qwen/Qwen3-32B-FP8 --dataset-name sharegpt --num-prompts 200",
			"perflab record --study qwen3-32b-a100 --run vllm-fp8-rerun --reproduces vllm-fp8 -- sh bench.sh",
		},
	},
	"build": {
		about: `Builds the site from results/, content/, locales/ and templates/: one
report per study in English, Chinese and Japanese, as HTML and Markdown,
with charts and CSV/JSON downloads. Problems perflab check would report are
shown in the reports; the build fails only when it cannot build. The output
folder is replaced whole, and only when the build succeeds.`,
		examples: []string{
			"perflab build",
			"perflab build --out public --base-url https://org.github.io/repo/",
			"perflab build --cache .perflab-cache   # render again only what a change touches",
		},
	},
	"check": {
		about: `Checks results/, content/ and locales/: every log (its arithmetic and
percentiles), every published figure against the logs, models, GPU counts,
datasets, translations and typography. Prints every problem with its file
and line, and exits 1 when an unacknowledged error remains.`,
		examples: []string{
			"perflab check",
			"perflab check --format github   # annotations and a job summary in GitHub Actions",
			"perflab check --study qwen3-32b-a100   # only the study a pull request touches",
			"perflab check --format json | jq '.[] | select(.severity == \"error\")'",
		},
	},
	"serve": {
		about: `Builds the site, serves it on a loopback address and builds again when
a file under results/, content/, locales/ or templates/ changes; each good
build is also written to --out. Open pages reload by themselves after a
build; while a build fails, pages show its error.`,
		examples: []string{"perflab serve", "perflab serve --addr 127.0.0.1:9000"},
	},
	"parse": {
		args: "LOG...",
		about: `Prints the result blocks perflab reads in raw benchmark logs (vLLM,
SGLang, TensorRT-LLM, GenAI-Perf, AIPerf and more) as JSON or CSV, one
record per block, with each metric's canonical key, value and line. Use it
to see how a log is read before adding it.`,
		examples: []string{"perflab parse bench.log", "perflab parse --format csv logs/*.log > blocks.csv"},
	},
	"summary": {
		about: `Writes, as Markdown, what a results tree changes against another (the
base branch). First the files of templates/ and locales/ it changes, as
code a maintainer must review, with the markup they add (scripts, event
handlers, off-site URLs, frames); then perflab check's verdict on both
trees, naming the first errors; then a table of what changes in the
reports: recommended and baseline configurations, each workload's
conclusion, each step's best run and the check status, and every other
input file that differs (results/ and the content/, locales/ and
templates/ beside it). "No change in meaning" means every input is the
same. The summary stays within 256 KiB; the rows it leaves out go to
stderr, within 512 KiB. The pull-request workflow puts it in the job
summary.`,
		examples: []string{"perflab summary --base base/results --head results"},
	},
	"import": {
		args: "REPORT.md...",
		about: `Turns published Markdown optimisation reports into study folders: the
commands, result blocks and errors are copied byte for byte, and every
figure the report prints becomes a claim perflab check recomputes. An
article with tables but no logs becomes a study of kind article. A page of
another layout is read by its pasted result blocks, each paired with the
serving and benchmark commands before it, every inferred value marked as a
guess. Each page's line says how many figures were not read: check cannot
verify those. An existing study folder is never replaced.`,
		examples: []string{"perflab import qwen3-32b__a100.md", "perflab import --out /tmp/results reports/*.md"},
	},
	"add": {
		args: "LOG...",
		about: `Adds a run to a study from the logs you ran: one log per
workload, the workload, engine, command and GPUs inferred where the logs
tell and said otherwise. A study that does not exist is started from the
run: a study.yaml with every guess marked, the run as its baseline, and
prose stubs in content/. Then prints what perflab check says about the new
run, and exits 1 if it has an error. Nothing existing is overwritten.`,
		examples: []string{
			"perflab add --study qwen3-32b-a100 --run vllm-fp8 sharegpt.log random-32k.log",
			"perflab add --study qwen3-32b-a100 --run sglang-tp2 --command 'python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 2' bench.log",
			"perflab add --study qwen3-32b-h100 --run vllm --gpu 'NVIDIA H100 80GB HBM3' --command 'vllm serve Qwen/Qwen3-32B' sharegpt.log",
		},
	},
}

// setUsage makes "perflab <name> -h" say what the command does, its
// arguments, its flags and examples.
func setUsage(fs *flag.FlagSet, name string) {
	h, ok := helps[name]
	if !ok {
		return
	}
	fs.Usage = func() {
		w := fs.Output()
		line := "usage: perflab " + name + " [flags]"
		if h.args != "" {
			line += " " + h.args
		}
		fmt.Fprintf(w, "%s\n\n%s\n\nflags:\n", line, h.about)
		fs.PrintDefaults()
		fmt.Fprintf(w, "\nexamples:\n  %s\n", strings.Join(h.examples, "\n  "))
	}
}
