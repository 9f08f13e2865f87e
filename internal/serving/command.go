package serving

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Flag is one option of a command under its canonical name; Printed is
// the spelling the command used.
type Flag struct{ Name, Value, Printed string }

// Command is a serving command as its engine reads it.
type Command struct {
	Engine *Engine // nil when no known engine starts it
	Model  string  // as printed: org/name, a path, or a bare name
	Flags  []Flag  // every option but the model, in order
}

// Parse reads a serving command. Flags are matched by the spelling table of
// the engine the command starts; -tp 4, --tp-size=4 and
// --tensor-parallel-size 4 are one flag.
func Parse(command string) Command {
	if v, ok := parsed.Load(command); ok {
		c := v.(Command)
		c.Flags = slices.Clone(c.Flags) // the caller's to change
		return c
	}
	c := parse(command)
	if parsedCount.Add(1) > maxParsed {
		parsed.Clear() // a long serve session: bounded, not exact
		parsedCount.Store(0)
	}
	parsed.Store(command, c)
	c.Flags = slices.Clone(c.Flags)
	return c
}

// parsed remembers the commands Parse read: a report asks for each run's
// command in every language and download, a dozen times a run.
var (
	parsed      sync.Map // string -> Command
	parsedCount atomic.Int64
)

const maxParsed = 1 << 14

func parse(command string) Command {
	words := Words(command)
	c := Command{Engine: Started(command)}
	table := c.Engine
	if table == nil {
		table = generic
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if c.Model == "" && servesNext(w) && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") && !servesNext(words[i+1]) {
			c.Model = words[i+1]
			i++
			continue
		}
		if len(w) < 2 || w[0] != '-' || isNumber(w) {
			continue
		}
		name, val, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		key := strings.ReplaceAll(name, "_", "-")
		if !hasValue && !isSwitch(key) && i+1 < len(words) && (!strings.HasPrefix(words[i+1], "-") || isNumber(words[i+1])) {
			val = words[i+1]
			i++
		}
		canon := table.Flags[key]
		if canon == "" {
			canon = key
		}
		if canon == FlagModel {
			if c.Model == "" {
				c.Model = val
			}
			continue
		}
		c.Flags = append(c.Flags, Flag{Name: canon, Value: val, Printed: strings.SplitN(w, "=", 2)[0]})
	}
	return c
}

// servesNext reports whether the word after w is the model: "vllm serve
// MODEL", "trtllm-serve MODEL", "lmdeploy serve api_server MODEL".
func servesNext(w string) bool {
	return w == "serve" || strings.HasSuffix(w, "trtllm-serve") || w == "api_server"
}

func isNumber(w string) bool {
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

// isSwitch: flags that take no value, so the next word is not theirs.
func isSwitch(key string) bool {
	for _, p := range []string{"enable-", "disable-", "no-", "trust-", "enforce-", "use-"} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// Sizes are the command's parallel sizes.
func (c Command) Sizes() Sizes {
	s := Sizes{TP: 1, PP: 1, DP: 1, EP: 1}
	for _, f := range c.Flags {
		n, err := strconv.Atoi(f.Value)
		if err != nil || n < 1 {
			n = 0
		}
		switch f.Name {
		case FlagTP:
			s.TP = max(n, 1)
		case FlagPP:
			s.PP = max(n, 1)
		case FlagDP:
			s.DP = max(n, 1)
		case FlagEP:
			s.EP = max(n, 1)
		case FlagDPAttention:
			s.DPAttention = true
		}
	}
	return s
}

// GPUs is how many GPUs the command occupies, by its engine's rule.
func (c Command) GPUs() int {
	e := c.Engine
	if e == nil {
		e = generic
	}
	return e.GPUs(c.Sizes())
}

// GPURule says how the command's engine counts its GPUs.
func (c Command) GPURule() string {
	if c.Engine == nil {
		return generic.GPURule
	}
	return c.Engine.GPURule
}

// EngineID is the id of the engine the command starts, or "".
func (c Command) EngineID() string {
	if c.Engine == nil {
		return ""
	}
	return c.Engine.ID
}

// neutralFlags never change what a benchmark measures: where the server
// listens, how it names the model, parsers of the reply, logging.
var neutralFlags = map[string]bool{
	"host": true, "port": true, "api-key": true, "served-model-name": true,
	"tool-call-parser": true, "reasoning-parser": true, "chat-template": true,
	"enable-auto-tool-choice": true, "tool-parser-plugin": true, "trust-remote-code": true,
	"log-level": true, "uvicorn-log-level": true, "disable-log-requests": true, "disable-log-stats": true,
	"enable-log-requests": true, "disable-uvicorn-access-log": true, "download-dir": true,
	"allowed-origins": true, "root-path": true, "ssl-keyfile": true, "ssl-certfile": true,
}

// wrapperFlags belong to what starts the engine: python3 -m, docker run.
var wrapperFlags = map[string]bool{
	"m": true, "gpus": true, "ipc": true, "shm-size": true, "v": true, "volume": true, "p": true, "publish": true,
	"e": true, "env": true, "name": true, "rm": true, "network": true, "it": true, "d": true,
	"runtime": true, "privileged": true, "device": true, "entrypoint": true,
}

// Ignored reports whether a canonical flag never changes performance.
func Ignored(name string) bool { return neutralFlags[name] || wrapperFlags[name] }

// Differences lists what makes two commands run differently: the engine,
// the model (organisation and case aside) and every flag that changes
// performance. A size of 1 is the same as no size.
func (c Command) Differences(o Command) []string {
	var out []string
	if c.EngineID() != o.EngineID() {
		out = append(out, fmt.Sprintf("engine %s vs %s", nameOf(c.Engine), nameOf(o.Engine)))
	}
	if ModelKey(c.Model) != ModelKey(o.Model) {
		out = append(out, fmt.Sprintf("model %s vs %s", orNone(c.Model), orNone(o.Model)))
	}
	a, b := c.perfFlags(), o.perfFlags()
	seen := map[string]bool{}
	for _, f := range c.Flags {
		v, ok := a[f.Name]
		if !ok || seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		if w, ok := b[f.Name]; !ok {
			out = append(out, fmt.Sprintf("%s only in the first", spell(f.Printed, v)))
		} else if v != w {
			out = append(out, fmt.Sprintf("%s vs %s", spell(f.Printed, v), w))
		}
	}
	for _, f := range o.Flags {
		v, ok := b[f.Name]
		if _, inA := a[f.Name]; !ok || inA || seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		out = append(out, fmt.Sprintf("%s only in the second", spell(f.Printed, v)))
	}
	return out
}

// Key identifies what the command runs: two commands with no Differences
// have the same key.
func (c Command) Key() string {
	flags := c.perfFlags()
	names := make([]string, 0, len(flags))
	for n := range flags {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(c.EngineID() + " " + ModelKey(c.Model))
	for _, n := range names {
		b.WriteString(" --" + n + "=" + flags[n])
	}
	return b.String()
}

// Settings are what Key identifies, by name: "engine", "model" and each
// flag that changes performance as "--" and its canonical name.
func (c Command) Settings() map[string]string {
	m := map[string]string{"engine": c.EngineID(), "model": ModelKey(c.Model)}
	for name, value := range c.perfFlags() {
		m["--"+name] = value
	}
	return m
}

func (c Command) perfFlags() map[string]string {
	m := map[string]string{}
	for _, f := range c.Flags {
		if Ignored(f.Name) {
			continue
		}
		switch f.Name {
		case FlagTP, FlagPP, FlagDP, FlagEP:
			if f.Value == "1" {
				continue
			}
		}
		m[f.Name] = f.Value
	}
	return m
}

func spell(printed, value string) string {
	if value == "" {
		return printed
	}
	return printed + " " + value
}

func nameOf(e *Engine) string {
	if e == nil {
		return "unknown"
	}
	return e.Name
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// quantSuffixes are the suffixes (after a "-") that name a quantised
// variant of the same model.
var quantSuffixes = map[string]bool{"fp8": true, "fp4": true, "nvfp4": true, "mxfp4": true, "awq": true, "gptq": true,
	"int4": true, "int8": true, "w8a8": true, "w4a16": true, "w8a16": true, "w4a8": true, "bf16": true, "fp16": true,
	"dynamic": true, "quantized": true, "gguf": true, "mlx": true, "bnb": true, "4bit": true, "8bit": true}

// ModelKey identifies a model as served: the name without organisation or
// path, lower case. Quantised variants differ.
func ModelKey(id string) string {
	id = strings.TrimRight(strings.TrimSpace(id), "/")
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	return strings.ToLower(id)
}

// BaseModel identifies the model itself: ModelKey without quantisation
// suffixes, so Qwen3-8B-FP8 is Qwen3-8B and Qwen3-14B is not.
func BaseModel(id string) string {
	key := ModelKey(id) // lower case, as every suffix is
	for {
		i := strings.LastIndexByte(key, '-')
		if i < 0 || !quantSuffixes[key[i+1:]] {
			return key
		}
		key = key[:i]
	}
}

// SameModel reports whether two model ids name one model, quantised or not.
func SameModel(a, b string) bool { return BaseModel(a) == BaseModel(b) }
