# Wall time against inflated profile size, from the plot.tsv that bench/report.py writes. Called by run.sh with
# -e "datafile='...'; outfile='...'".
set terminal pngcairo size 1000,620 font "DejaVu Sans,11"
set output outfile
set termoption noenhanced   # profile names hold underscores
set title "Loading and aggregating a pprof profile (median wall time, 2 cores; go tool pprof ran out of 16 GiB at 524 MB)"
set xlabel "inflated profile size (MB)"
set ylabel "wall time (s)"
set logscale xy
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key top left box opaque
set datafile separator "\t"
set datafile missing "NaN"
set format y "%g"
set format x "%g"
plot datafile using 1:4 with linespoints lw 2 pt 7 ps 1.3 lc rgb "#1f77b4" title "go tool pprof -top", \
     datafile using 1:2 with linespoints lw 2 pt 5 ps 1.3 lc rgb "#d62728" title "qflame top", \
     datafile using 1:3 with linespoints lw 2 pt 9 ps 1.3 lc rgb "#7f7f7f" dt 2 title "zcat > /dev/null (floor)", \
     datafile using 1:2:5 with labels noenhanced offset 0,-1.2 font ",8" tc rgb "#555555" notitle
