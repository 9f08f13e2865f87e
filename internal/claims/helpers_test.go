package claims

import (
	"math"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/studytest"
)

// checkedReport is a report with the results of its study's claims.
type checkedReport struct {
	*report.Report
	Claims []Result
}

// build computes a study's report and checks its claims, as the pipeline
// does.
func build(s *study.Study, excluded map[string]string) checkedReport {
	r := report.Build(s, excluded)
	return checkedReport{r, Check(r)}
}

// testRun, setMetric, testStudy and engineStudy are studytest's, with the
// report's headline metric.
func testRun(id, name string, gpus int, workloadValues ...string) *study.Run {
	return studytest.Run(report.TotalThroughput.Key, id, name, gpus, workloadValues...)
}

func setMetric(r *study.Run, workload, key, raw string, line int) {
	studytest.SetMetric(r, workload, key, raw, line)
}

func testStudy(obj study.Objective, node int, runs ...*study.Run) *study.Study {
	return studytest.Study(obj, node, runs...)
}

func engineStudy() *study.Study { return studytest.EngineStudy(report.TotalThroughput.Key) }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
