package render

import (
	htmltemplate "html/template"
	"strings"

	"github.com/perflab/perflab/internal/markup"
	"github.com/perflab/perflab/internal/study"
)

// setupView is the objective and the setup of a study, made once a page
// for both formats.
type setupView struct {
	Prose    rich   // the objective's prose from content/
	Headline rich   // the figure configurations are compared on
	Items    []rich // model, hardware, engines, tool and source
	Datasets []rich // each workload's requests
	Commands rich   // the benchmark commands as a block; zero without
}

func (p *reportPage) Setup() *setupView { return p.setupV.get(p.makeSetup) }

func (p *reportPage) makeSetup() *setupView {
	loc, s := p.loc, p.s
	label := func(id string) rich { return loc.R("label", "Label", loc.R(id)) }
	v := &setupView{Prose: p.richProse("objective"),
		Headline: loc.R("objective.headline."+string(s.Objective), "Metric", loc.R("metric."+p.rep.Headline.Key))}
	engines := make([]rich, len(s.Engines))
	for i, e := range s.Engines {
		engines[i] = richJoin(richText(e.Name+" "+e.Version), p.freshness(e.ID))
	}
	v.Items = []rich{
		richJoin(label("setup.model"), richText(s.Model)),
		richJoin(label("setup.hardware"), loc.R("setup.hardware_value", "N", s.Hardware.Nodes, "PerNode", s.Hardware.GPUsPerNode, "GPU", s.Hardware.GPU)),
		richJoin(label("setup.engines"), richList(loc.R("chart.list_separator"), engines...)),
		richJoin(label("setup.tool"), richText(s.Benchmark.Tool)),
	}
	if src := s.Source; src != nil {
		title := richText(src.Title)
		if src.URL != "" {
			title = rich{"[" + title.MD + "](<" + src.URL + ">)", htmltemplate.HTML(`<a href="`+htmlText.Replace(src.URL)+`">`) + title.HTML + "</a>"}
		}
		v.Items = append(v.Items, richJoin(label("setup.source"), title))
	}
	for _, w := range s.Workloads {
		d := loc.R("setup.dataset", "Name", p.workloadName(w.ID), "Dataset", p.dataset(w))
		if w.Main {
			d = richJoin(d, loc.R("aside", "Text", loc.R("setup.main_workload")))
		}
		v.Datasets = append(v.Datasets, d)
	}
	if cmds := s.Benchmark.Commands; cmds != "" {
		v.Commands = richFence(cmds, "bash", p.codeLabel)
	}
	return v
}

// dataset describes a workload's requests: the dataset, the number of
// prompts, the seed and the concurrency, as text.
func (p *reportPage) dataset(w study.Workload) rich {
	loc := p.loc
	var parts []string
	if w.Dataset == "random" {
		parts = append(parts, loc.T("dataset.random", "In", w.InputLen, "Out", w.OutputLen))
	} else {
		parts = append(parts, loc.T("dataset."+w.Dataset))
	}
	if w.NumPrompts > 0 {
		parts = append(parts, loc.T("dataset.prompts", "N", w.NumPrompts))
	}
	if w.Seed != nil {
		parts = append(parts, loc.T("dataset.seed", "Seed", *w.Seed))
	}
	if w.MaxConcurrency != nil {
		parts = append(parts, loc.T("dataset.concurrency", "N", *w.MaxConcurrency))
	}
	text := strings.Join(parts, loc.T("list.separator"))
	return rich{text, htmltemplate.HTML(htmlText.Replace(text))}
}

// freshness says, after an engine's version, how it compares with the
// newest of the same engine in the site; the other study's page is one
// folder up from this one's.
func (p *reportPage) freshness(engine string) rich {
	loc := p.loc
	f, ok := p.in.Freshness[engine]
	var text rich
	switch {
	case !ok:
		return rich{}
	case !f.Known:
		text = loc.R("freshness.unknown")
	case f.Behind == 0:
		text = loc.R("freshness.newest")
	default:
		study := richText(f.Study)
		link := rich{"[" + study.MD + "](" + markup.LinkPath(f.Study+".md") + ")",
			htmltemplate.HTML(`<a href="../`+htmlText.Replace(markup.LinkPath(f.Study))+`/index.html">`) + study.HTML + "</a>"}
		text = loc.R("freshness.behind", "N", f.Behind, "Newest", f.Newest, "Study", link)
	}
	return loc.R("aside", "Text", text)
}
