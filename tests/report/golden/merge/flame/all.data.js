/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":18000000,"total":18000000,
"names":[
"main",
"work",
"helper",
"fork_child",
"helper"],
"files":["","","a.c","","b.c"],
"links":[0,1,2,3,4],
"depth":[0,1,2,1,1],
"fn":[0,1,2,3,4],
"weight":[18000000,11000000,5000000,3000000,2000000],
"self":[2000000,6000000,5000000,3000000,2000000],
"calls":[2,8,8,1,2]};
