/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":48000000,"total":48000000,
"names":[
"main",
"join_all",
"start_workers"],
"files":["","",""],
"links":[0,5,1],
"depth":[0,1,1],
"fn":[0,1,2],
"weight":[48000000,45000000,2000000],
"self":[1000000,45000000,2000000],
"calls":[1,1,1]};
