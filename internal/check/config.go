package check

import (
	"regexp"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// envName is a shell variable assignment: NAME=value.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// image is a container image with its tag: vllm/vllm-openai:v0.11.0.
var image = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)+:[A-Za-z0-9._+-]+$`)

// Configuration is what a run runs: its command as the engine reads it,
// plus the environment the command sets (export lines, NAME=value before
// a command, docker -e) and the container image it starts. Two commands
// that differ only by an exported variable are two configurations.
func Configuration(command string) string {
	var env []string
	img := ""
	for _, line := range strings.Split(command, "\n") {
		words := strings.Fields(strings.TrimSpace(line))
		if len(words) > 0 && strings.HasPrefix(words[0], "#") {
			continue
		}
		lead := true // NAME=value words before the command's name
		for i, w := range words {
			w = strings.Trim(w, `"'`)
			switch {
			case w == "export" && i == 0:
				continue
			case (lead || (i > 0 && (words[i-1] == "-e" || words[i-1] == "--env"))) && envName.MatchString(w):
				env = append(env, w)
				continue
			case strings.HasPrefix(w, "--env=") || strings.HasPrefix(w, "-e="):
				env = append(env, w[strings.Index(w, "=")+1:])
			case image.MatchString(w):
				img = w
			}
			lead = false
		}
	}
	sort.Strings(env)
	return serving.Parse(command).Key() + " env=" + strings.Join(env, ",") + " image=" + img
}

// runOrder is the order a study shows its runs in: by step (reference
// first), then the baseline and recommended configurations, then the
// runs placed nowhere. Of two identical blocks, the later run's is taken
// for the copy when nothing else tells them apart.
func runOrder(s *study.Study) map[string]int {
	order := map[string]int{}
	add := func(id string) {
		if _, ok := order[id]; !ok && id != "" {
			order[id] = len(order)
		}
	}
	for _, st := range s.Steps {
		add(st.Reference)
		for _, id := range st.Runs {
			add(id)
		}
	}
	for _, id := range append(append([]string(nil), s.Baseline.Runs...), s.Recommended.Runs...) {
		add(id)
	}
	for _, r := range s.Runs {
		add(r.ID)
	}
	return order
}

// echoedModel is the model a log echoes before a block (its client's
// Namespace(model='...')), or "", given the log's echoLines.
func echoedModel(echoes []echoLine, line int) string {
	return echoBefore(echoes, line)["model"].value
}
