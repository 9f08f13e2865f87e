package addrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoLocalPathInWrittenFiles: what perflab add writes goes into a pull
// request, so no note in study.yaml or run.yaml names a place on the
// contributor's machine: not the log's folder (a temporary one, the home
// folder, through a symbolic link), not a path the log itself printed;
// each log is named by its file name.
func TestNoLocalPathInWrittenFiles(t *testing.T) {
	home := t.TempDir()
	bench := "$ vllm bench serve --model example-org/Example-8B --dataset-path /home/alice/data/ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 100\n"
	logs := map[string]string{
		"sharegpt.log":  bench + block(100, 21734, 19876, 48),
		"random-1k.log": "# random 1k input\nINFO Namespace(dataset_name='random', random_input_len=1000, random_output_len=100, seed=0, dataset_path=C:\\Users\\alice\\none.json)\n" + random1kBlock,
	}
	var paths []string
	for name, text := range logs {
		paths = append(paths, writeTest(t, filepath.Join(home, "my logs", name), text))
	}
	link := filepath.Join(home, "link")
	if err := os.Symlink(filepath.Join(home, "my logs"), link); err != nil {
		t.Fatal(err)
	}
	paths[1] = filepath.Join(link, filepath.Base(paths[1]))
	for _, tc := range []struct{ name, study string }{{"a new study", "fresh"}, {"an existing study", "ex"}} {
		t.Run(tc.name, func(t *testing.T) {
			results := tree(t)
			p, err := Add(Options{Results: results, Content: filepath.Join(filepath.Dir(results), "content"), Study: tc.study, Run: "r", Logs: paths, GPU: "NVIDIA L40S"})
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{"run.yaml": p.RunYAML}
			if p.New != nil {
				files["study.yaml"] = p.New.StudyYAML
			}
			for name, data := range files {
				for _, local := range []string{home, results, "/home/alice", `C:\Users`, "my logs"} {
					if strings.Contains(string(data), local) {
						t.Errorf("%s names %q:\n%s", name, local, data)
					}
				}
			}
			if !strings.Contains(string(p.RunYAML), "ShareGPT_V3_unfiltered_cleaned_split.json in the benchmark command at sharegpt.log:1") {
				t.Errorf("run.yaml does not name the dataset path by its file name and the log by its own:\n%s", p.RunYAML)
			}
		})
	}
}

// TestNewStudyDatasetSaysWhere: the dataset of a new study's workload is
// marked with the line of the log it was read from, and "nothing" only
// when no line says it.
func TestNewStudyDatasetSaysWhere(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, text, want string }{
		{"sharegpt.log", "$ vllm bench serve --model org/M-8B --dataset-path data/ShareGPT_V3.json --num-prompts 100\n" + block(100, 21734, 19876, 48),
			"dataset: sharegpt # guessed from dataset_path ShareGPT_V3.json in the benchmark command at sharegpt.log:1: check"},
		{"long.log", "$ vllm bench serve --model org/M-8B --random-input-len 1000 --random-output-len 100\n" + random1kBlock,
			"dataset: random # guessed from random_input_len in the benchmark command at long.log:1, which only a random dataset reads: check\n    input_len: 1000 # guessed from random_input_len in the benchmark command at long.log:1: check"},
		{"chat.log", "# ShareGPT conversations\n$ vllm bench serve --model org/M-8B\n" + block(100, 21734, 19876, 48),
			`dataset: sharegpt # guessed from the label "# ShareGPT conversations" at chat.log:1: check`},
		{"plain.log", "$ vllm bench serve --model org/M-8B\n" + block(100, 21734, 19876, 48),
			"dataset: sharegpt # guessed from nothing: the log names no dataset"},
	}
	for _, tc := range tests {
		results := filepath.Join(dir, strings.TrimSuffix(tc.name, ".log"), "results")
		log := writeTest(t, filepath.Join(dir, "logs", tc.name), tc.text)
		p, err := Prepare(Options{Results: results, Content: filepath.Join(dir, "content"), Study: "s", Run: "r", Logs: []string{log}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(string(p.New.StudyYAML), tc.want) {
			t.Errorf("%s: study.yaml lacks %q:\n%s", tc.name, tc.want, p.New.StudyYAML)
		}
	}
}

// TestNewWorkloadSaysHowToDeclareIt: a log no workload of the study fits
// gets the study.yaml entry that declares the workload it measured,
// drafted from the log, not only the list of workloads to choose from.
func TestNewWorkloadSaysHowToDeclareIt(t *testing.T) {
	results := tree(t)
	log := writeTest(t, filepath.Join(t.TempDir(), "random-8k.log"),
		"$ vllm bench serve --model example-org/Example-8B --dataset-name random --random-input-len 8000 --random-output-len 200 --num-prompts 50 --seed 1\n"+block(50, 400000, 10000, 80))
	_, err := Prepare(Options{Results: results, Study: "ex", Run: "r", Logs: []string{log}})
	if err == nil {
		t.Fatal("a log of a new workload was added")
	}
	for _, want := range []string{
		"pass --workload with its id",
		"add this at the end of workloads: in " + filepath.Join(results, "ex", "study.yaml"),
		"  - id: random-8k # guessed from the log's file name: check\n" +
			"    dataset: random # guessed from dataset_name random in the benchmark command at random-8k.log:1: check\n" +
			"    input_len: 8000 # guessed from random_input_len in the benchmark command at random-8k.log:1: check\n" +
			"    output_len: 200 # guessed from random_output_len in the benchmark command at random-8k.log:1: check\n" +
			"    num_prompts: 50 # guessed from num_prompts in the benchmark command at random-8k.log:1: check\n" +
			"    seed: 1 # guessed from seed in the benchmark command at random-8k.log:1: check",
		"its display name under workloads: in the front matter of content/<lang>/ex.md",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
	if _, entry, _ := strings.Cut(err.Error(), "\n\n"); strings.Contains(entry, filepath.Dir(log)) {
		t.Errorf("the entry to paste names the log by its local path:\n%v", err)
	}
}
