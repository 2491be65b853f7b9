/* callprof: the data of one flame graph, read by static/flame.js and static/tree.js. */
window.callprofData = {"version":1,"byCalls":0,"whole":120000000,"total":120000000,
"names":[
"worker",
"crunch",
"hash",
"main",
"join_all",
"start_workers"],
"files":["","","","","",""],
"links":[2,3,4,0,5,1],
"depth":[0,1,2,1,0,1,1],
"fn":[0,1,2,2,3,4,5],
"weight":[72000000,60000000,16000000,8000000,48000000,45000000,2000000],
"self":[4000000,44000000,16000000,8000000,1000000,45000000,2000000],
"calls":[2,150,1500,200,1,1,1]};
