/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":8000000,"total":8000000,
"names":[
"main",
"work",
"helper",
"helper"],
"files":["","","a.c","b.c"],
"links":[0,1,2,4],
"depth":[0,1,2,1],
"fn":[0,1,2,3],
"weight":[8000000,5000000,3000000,2000000],
"self":[1000000,2000000,3000000,2000000],
"calls":[1,3,3,2]};
