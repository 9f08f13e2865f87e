package check

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// Rules that hold a label against the evidence behind it.
const (
	RuleEngineLabel   = "engine-label"
	RuleEngineVersion = "engine-version"
)

// engineLabelRule: the engine run.yaml names must be the one its command
// starts; reports and downloads publish the label, so an SGLang command
// labelled vllm would be published as vLLM.
func engineLabelRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	started := serving.Started(r.Command)
	label := labelEngine(s, r.Engine)
	if started == nil || label == nil || started == label {
		return
	}
	add(Diagnostic{Rule: RuleEngineLabel, Severity: Error, File: r.Pos.File, Line: r.EngineLine, Subject: r.ID,
		Printed: r.Engine, Computed: started.ID,
		Message: fmt.Sprintf("run %s%s is labelled engine %s (%s), but its command starts %s: correct engine in run.yaml to the study's id for %s, or the command if it was copied from another run",
			r.ID, publishedAt(r), r.Engine, label.Name, started.Name, started.Name)})
}

// labelEngine is the engine a run's label means: its id, or the name the
// study gives that id.
func labelEngine(s *study.Study, id string) *serving.Engine {
	if e := serving.ByAlias(id); e != nil {
		return e
	}
	for _, e := range s.Engines {
		if e.ID == id {
			if named := serving.ByAlias(e.Name); named != nil {
				return named
			}
			return serving.Named(e.Name)
		}
	}
	return nil
}

// printedVersion finds the engine version a server log or a container
// image states: "vLLM API server version 0.11.0", "vllm/vllm-openai:v0.11.0",
// "lmsysorg/sglang:v0.5.5.post1-cu126".
var printedVersion = regexp.MustCompile(`(?i)(?:\b(vllm|sglang|tensorrt[-_ ]?llm)\b(?: api server)? version[:= ]+|\b(vllm/vllm-openai|lmsysorg/sglang|nvcr\.io/nvidia/tensorrt-llm/release):)v?(\d+\.\d+[0-9A-Za-z.+]*)`)

// engineVersionRule: a version the run's own command or log prints must be
// the one the study states for the run's engine.
func engineVersionRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	var stated *study.Engine
	for i := range s.Engines {
		if s.Engines[i].ID == r.Engine {
			stated = &s.Engines[i]
		}
	}
	// A recorded run's version is recorded-mismatch's to judge, and a
	// reproduction may run on another version on purpose.
	if stated == nil || stated.Version == "" || r.Reproduces != "" || (r.Recorded != nil && r.Recorded.EngineVersion != "") {
		return
	}
	check := func(text, file string, line int) {
		for _, m := range printedVersion.FindAllStringSubmatch(text, -1) {
			// A benchmark client may print its own version (a vLLM client
			// against an SGLang server): only the run's engine counts.
			if sameRelease(m[3], stated.Version) || serving.Named(m[0]) != labelEngine(s, r.Engine) {
				continue
			}
			add(Diagnostic{Rule: RuleEngineVersion, Severity: Error, File: file, Line: line, Subject: r.ID,
				Printed: stated.Version, Computed: m[3],
				Message: fmt.Sprintf("run %s ran %s %s (%q), but %s states version %s for engine %s (line %d): correct the version there, or move the run to the history of the version it ran on",
					r.ID, stated.Name, m[3], strings.TrimSpace(m[0]), s.Pos.File, stated.Version, stated.ID, stated.VersionLine)})
			return
		}
	}
	check(r.Command, r.Pos.File, commandLine(r))
	for _, lg := range r.Logs {
		// Most logs are a result table alone: look at their lines only
		// when a version could be in them.
		if !bytes.Contains(lg.Raw, []byte("ersion")) {
			continue
		}
		for i, line := range strings.Split(string(lg.Raw), "\n") {
			if printedVersion.MatchString(line) {
				check(line, lg.File, i+1)
				break
			}
		}
	}
}

// sameRelease compares versions as people write them: a build suffix
// ("-cu126", "+cu128") aside, then as versions (sameVersion).
func sameRelease(a, b string) bool {
	norm := func(v string) string {
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "-+"); i >= 0 {
			v = v[:i]
		}
		return v
	}
	return sameVersion(norm(a), norm(b)) || strings.EqualFold(strings.TrimPrefix(norm(a), "v"), strings.TrimPrefix(norm(b), "v"))
}
