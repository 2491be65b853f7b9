/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":10000000,"total":10000000,
"names":[
"main",
"work",
"helper",
"fork_child"],
"files":["","","a.c",""],
"links":[0,1,2,3],
"depth":[0,1,2,1],
"fn":[0,1,2,3],
"weight":[10000000,6000000,2000000,3000000],
"self":[1000000,4000000,2000000,3000000],
"calls":[1,5,5,1]};
