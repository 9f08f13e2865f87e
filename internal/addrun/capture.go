package addrun

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Field is one value of run.yaml's recorded mapping: captured (Value and
// From) or not (Missing says why, and run.yaml holds null).
type Field struct {
	Key     string
	Value   string
	Int     bool   // written as a whole number
	From    string // how it was captured
	Missing string // why it was not
}

// Probe is how perflab record looks at the machine; tests replace it.
type Probe struct {
	LookPath func(file string) (string, error)
	Output   func(name string, args ...string) ([]byte, error)
	Hostname func() (string, error)
	Now      func() time.Time
	Version  string // perflab's version; "" when the binary does not say
}

// DefaultProbe looks at this machine.
func DefaultProbe(version string) Probe {
	return Probe{
		LookPath: exec.LookPath,
		Output:   func(name string, args ...string) ([]byte, error) { return exec.Command(name, args...).Output() },
		Hostname: os.Hostname,
		Now:      time.Now,
		Version:  version,
	}
}

// gpuFields asks nvidia-smi for the model, count and driver of the GPUs.
// Other vendors' tools are named when present but not read: their output
// formats vary by version, and a wrong value is worse than a missing one.
func (pr Probe) gpuFields() []Field {
	gpu, count, driver := Field{Key: "gpu"}, Field{Key: "gpu_count", Int: true}, Field{Key: "gpu_driver"}
	set := func(why string) []Field {
		gpu.Missing, count.Missing, driver.Missing = why, why, why
		return []Field{gpu, count, driver}
	}
	if _, err := pr.LookPath("nvidia-smi"); err != nil {
		for _, tool := range []string{"rocm-smi", "npu-smi"} {
			if _, err := pr.LookPath(tool); err == nil {
				return set(tool + " is present, but perflab reads only nvidia-smi: fill in by hand")
			}
		}
		return set("no nvidia-smi, rocm-smi or npu-smi on PATH")
	}
	out, err := pr.Output("nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader")
	if err != nil {
		return set("nvidia-smi failed: " + firstLine(strings.TrimSpace(err.Error())))
	}
	var names, drivers []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, drv, ok := strings.Cut(line, ",")
		if !ok || strings.TrimSpace(name) == "" {
			return set(fmt.Sprintf("nvidia-smi printed %q, not name, driver_version", firstLine(line)))
		}
		names = append(names, strings.TrimSpace(name))
		drivers = append(drivers, strings.TrimSpace(drv))
	}
	const from = "nvidia-smi --query-gpu=name,driver_version"
	if same(names) {
		gpu.Value, gpu.From = names[0], from
	} else {
		gpu.Missing = "nvidia-smi lists different models: " + strings.Join(names, ", ")
	}
	count.Value, count.From = strconv.Itoa(len(names)), from+" (GPUs on the host, not those the run used)"
	if same(drivers) && drivers[0] != "" {
		driver.Value, driver.From = drivers[0], from
	} else {
		driver.Missing = "nvidia-smi lists different drivers"
	}
	return []Field{gpu, count, driver}
}

func same(xs []string) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return len(xs) > 0
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// engineVersion matches a version an engine or its benchmark prints about
// itself: "vLLM API server version 0.11.0", "sglang version: 0.5.2".
var engineVersion = regexp.MustCompile(`(?i)\b(vllm|sglang|tensorrt[-_ ]llm|lmdeploy)\b[^\n]{0,40}?\bversion\b[:= ]+(v?[0-9]+\.[0-9]+[0-9A-Za-z.+-]*)`)

// engineVersionField finds the engine's version in the log; the first
// mention wins.
func engineVersionField(logName string, raw []byte) Field {
	f := Field{Key: "engine_version"}
	for i, line := range bytes.Split(raw, []byte("\n")) {
		if m := engineVersion.FindSubmatch(line); m != nil {
			f.Value, f.From = string(m[2]), fmt.Sprintf("printed at %s:%d", logName, i+1)
			return f
		}
	}
	f.Missing = "neither the benchmark nor the server printed it in the log"
	return f
}

// recordedNode renders the recorded mapping: each captured value with a
// comment saying how, each other one null with a comment saying why not.
func recordedNode(fields []Field) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for _, f := range fields {
		v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.Value}
		switch {
		case f.Missing != "":
			v.Tag, v.Value, v.LineComment = "!!null", "null", "not captured: "+f.Missing
		case f.Int:
			v.Tag, v.LineComment = "!!int", "captured: "+f.From
		default:
			v.LineComment = "captured: " + f.From
			if strings.Contains(f.Value, "\n") {
				v.Style = yaml.LiteralStyle
			}
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: f.Key}, v)
	}
	return m
}
