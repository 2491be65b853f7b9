/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":92500000,"total":92500000,
"names":[
"main",
"compute",
"fib",
"cmp_int",
"load_input",
"parse_line",
"write_output"],
"files":["","","","","","",""],
"links":[0,3,4,6,1,2,5],
"depth":[0,1,2,3,2,1,2,1,2],
"fn":[0,1,2,2,3,4,5,6,5],
"weight":[92500000,70000000,25000000,20000000,5000000,20000000,18000000,1500000,500000],
"self":[1000000,40000000,5000000,20000000,5000000,2000000,18000000,1000000,500000],
"calls":[1,10,10,200,5000,1,1000,2,5]};
